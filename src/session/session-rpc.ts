// The RPC surface the Worker calls on a session's Durable Object. Results carry `unknown` payloads,
// which the generated stub types cannot express, so the stub is typed through this interface.
import type { SessionCommand } from "../protocol/commands";
import type { PushSubscriptionBody } from "../protocol/notify";
import type { CommandOutcome } from "./command-handler";
import type { SessionInit } from "./session-types";

export interface SessionRpc {
  create(init: SessionInit): Promise<CommandOutcome>;
  snapshot(): Promise<CommandOutcome>;
  eventsPage(after: number, limit: number): Promise<CommandOutcome>;
  command(command: SessionCommand, deviceId: string | null): Promise<CommandOutcome>;
  stats(): Promise<CommandOutcome>;
  subscribePush(body: PushSubscriptionBody): Promise<CommandOutcome>;
  unsubscribePush(deviceId: string): Promise<CommandOutcome>;
  deliveries(): Promise<CommandOutcome>;
  fetch(request: Request): Promise<Response>;
}

export function sessionStub(env: Env, sessionId: string): SessionRpc {
  return env.SESSIONS.get(env.SESSIONS.idFromName(sessionId)) as unknown as SessionRpc;
}

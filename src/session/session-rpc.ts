// The RPC surface the Worker calls on a session's Durable Object. SessionObject implements it, and
// its generated stub is assignable to it without a cast, so the compiler checks both ends.
import type { Access, ShareLinkView } from "../protocol/access";
import type { SessionCommand } from "../protocol/commands";
import type { PushSubscriptionBody } from "../protocol/notify";
import type { CommandOutcome } from "./command-handler";
import type { InboxAction, InboxActor } from "./inbox-actions";
import type { SessionInit } from "./session-types";

export interface SessionRpc extends Rpc.DurableObjectBranded {
  create(init: SessionInit): Promise<CommandOutcome>;
  snapshot(access?: Access): Promise<CommandOutcome>;
  eventsPage(after: number, limit: number, access?: Access): Promise<CommandOutcome>;
  command(command: SessionCommand, deviceId: string | null, access?: Access): Promise<CommandOutcome>;
  stats(access?: Access): Promise<CommandOutcome>;
  fromInbox(actor: InboxActor, action: InboxAction): Promise<CommandOutcome>;
  addLink(
    link: Pick<ShareLinkView, "linkId" | "role" | "label" | "expiresAt">,
    access?: Access,
  ): Promise<CommandOutcome>;
  listLinks(access?: Access): Promise<CommandOutcome>;
  revokeLink(linkId: string, access?: Access): Promise<CommandOutcome>;
  destroy(access?: Access): Promise<CommandOutcome>;
  exportSession(access?: Access): Promise<CommandOutcome>;
  rotateOwnerToken(access: Access): Promise<CommandOutcome>;
  subscribePush(body: PushSubscriptionBody, access: Access, sessionUrl: string): Promise<CommandOutcome>;
  unsubscribePush(deviceId: string, access?: Access): Promise<CommandOutcome>;
  deliveries(access?: Access): Promise<CommandOutcome>;
  creator(): Promise<string | null>;
  externalInteraction(interactionId: string, waitMs: number, access: Access): Promise<CommandOutcome>;
  ensureAgentLink(
    link: Pick<ShareLinkView, "linkId" | "label">,
    fallbackLinkId: string,
  ): Promise<CommandOutcome>;
  /** Revokes an agent link whose agent key was revoked, whatever the owner token's version. */
  revokeAgentLink(linkId: string): Promise<CommandOutcome>;
  fetch(request: Request): Promise<Response>;
}

export function sessionStub(env: Env, sessionId: string): SessionRpc {
  return env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
}

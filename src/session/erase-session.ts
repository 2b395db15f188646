// Erasing a session: stop every writer, close every connection, then drop all storage, alarm
// included, so the id answers 404. A keyed external session leaves a mark so it is not made again.
import type { EventStreams } from "../objects/event-streams";
import { closeSocket, SOCKET_CLOSE } from "../objects/socket-access";
import { externalAgentOf } from "./external-session";
import type { InboxReport } from "./inbox-report/inbox-report";
import { markErased } from "./session-create";
import type { SessionRuntime } from "./session-runtime";
import type { SessionState } from "./session-state";

/** The parts built so far; the shell drops its references to them once this returns. */
export interface BuiltParts {
  state: SessionState | null;
  inboxReport: InboxReport | null;
  runtime: SessionRuntime | null;
  streams: EventStreams | null;
}

export function eraseSession(ctx: DurableObjectState, built: BuiltParts, reason: string): void {
  const keyed = Boolean(built.state && externalAgentOf(built.state.meta)?.key);
  built.inboxReport?.forget();
  built.state?.deadlines.discard();
  built.state?.discardWrites();
  built.runtime?.loop.halt();
  for (const ws of ctx.getWebSockets()) closeSocket(ws, SOCKET_CLOSE.deleted, reason);
  built.streams?.close();
  // Storage operations are ordered and covered by the output gate; no need to await here.
  void ctx.storage.deleteAlarm();
  void ctx.storage.deleteAll();
  if (keyed) markErased(ctx.storage.sql);
}

// The hosts the shell hands to a new connection (session-connections.ts) and to each socket frame
// (socket-commands.ts), and the replay both share, charged to the socket's credential.

import type { EventStreams } from "../../objects/event-streams";
import type { ReplayBudget } from "../../objects/replay-budget";
import { readAttachment, socketTag } from "../../objects/socket-access";
import { SpentTickets } from "../../objects/spent-tickets";
import type { Access } from "../../protocol/access/access";
import type { DeviceKind } from "../../protocol/cards/decider";
import type { SessionSnapshot } from "../../protocol/session/session";
import type { SessionCommand } from "../../protocol/wire/commands";
import type { ErrorBody } from "../../protocol/wire/errors";
import type { DeltaFrame } from "../../protocol/wire/frames";
import type { SocketBudget } from "../budgets/socket-budget";
import type { CommandOutcome } from "../command-handler";
import type { SessionState } from "../session-state";
import { acceptSocket, acceptStream, type ConnectionHost } from "./session-connections";
import { answerSocketFrame, type SocketCommandHost } from "./socket-commands";

/** What the Durable Object lends its sockets; functions, so each call sees the current parts. */
export interface SocketShell {
  ctx: DurableObjectState;
  state(): SessionState;
  now(): number;
  budget: SocketBudget;
  replayBudget(): ReplayBudget;
  openStreams(): EventStreams | null;
  streams(): EventStreams;
  unstoredDelta(): DeltaFrame | null | undefined;
  gate(access: Access): ErrorBody | null;
  logIds(access: Pick<Access, "linkId">): { sessionId: string; linkId: string | null };
  snapshot(): SessionSnapshot;
  /** Sends a socket's command through the session's door; the socket's frame allowance was taken already. */
  run(
    command: SessionCommand,
    from: { deviceId: string; device: DeviceKind },
    access: Access,
  ): Promise<CommandOutcome>;
}

/** Upgrades a request to a WebSocket, or opens an SSE stream for `/events/stream`. */
export function acceptConnection(shell: SocketShell, request: Request): Response {
  const host: ConnectionHost = {
    ctx: shell.ctx,
    gate: (access) => shell.gate(access),
    spendTicket: (ticketed, access) =>
      new SpentTickets(shell.state().meta, () => shell.now()).spend(ticketed, socketTag(access)),
    mayReplay: (access) => shell.replayBudget().allows(socketTag(access)),
    chargeReplay: (access, bytes) => shell.replayBudget().charge(socketTag(access), bytes),
    openStreams: () => shell.openStreams(),
    streams: () => shell.streams(),
    hello: (deviceId, access) => ({ type: "hello", deviceId, role: access.role, snapshot: shell.snapshot() }),
    replayTo: (ws, after) => replayTo(shell, ws, after),
  };
  const isStream = new URL(request.url).pathname.endsWith("/events/stream");
  return isStream ? acceptStream(host, request) : acceptSocket(host, request);
}

/** Answers one frame a socket sent. */
export function answerFrame(shell: SocketShell, ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
  const host: SocketCommandHost = {
    budget: shell.budget,
    gate: (access) => shell.gate(access),
    replay: (socket, after) => {
      replayTo(shell, socket, after);
      return shell.state().events.lastSeq;
    },
    mayReplay: (socket) => shell.replayBudget().allows(replayTag(socket)),
    logIds: (socket) => shell.logIds({ linkId: readAttachment(socket)?.access.linkId ?? null }),
    run: (command, from, access) => shell.run(command, from, access),
  };
  return answerSocketFrame(host, ws, message);
}

// Stored events after the cursor, then what the model streamed since the last stored one, so a
// device joining mid-stream has the exact text before the next live delta reaches it.
function replayTo(shell: SocketShell, ws: WebSocket, after: number): void {
  shell.replayBudget().send(ws, replayTag(ws), shell.state().events.replayFrames(after));
  const unstored = shell.unstoredDelta();
  if (unstored) ws.send(JSON.stringify(unstored));
}

/** The credential a socket's replays count against (an unreadable one shares one allowance). */
function replayTag(ws: WebSocket): string {
  const socket = readAttachment(ws);
  return socket ? socketTag(socket.access) : "unreadable";
}

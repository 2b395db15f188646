// A device connecting: a WebSocket accepted, or an SSE stream opened, once its credential, its
// single-use ticket and the connection caps allow it — each answered with a hello and the replay
// after its cursor, sent synchronously so no live event can slip between.

import type { EventStreams } from "../../objects/event-streams";
import {
  readSocketAccess,
  readStreamAccess,
  refuseSocket,
  type SocketAttachment,
  socketTag,
} from "../../objects/socket-access";
import type { Access } from "../../protocol/access/access";
import type { ErrorBody } from "../../protocol/wire/errors";
import type { HelloFrame } from "../../protocol/wire/frames";
import { connectionRefusal } from "./connection-caps";

/** What the session object lends a connection being opened. */
export interface ConnectionHost {
  readonly ctx: DurableObjectState;
  gate(access: Access): ErrorBody | null;
  /** Spends the request's ticket against `access`'s quota; run last, once nothing else refuses. */
  spendTicket(request: Request, access: Access): ErrorBody | null;
  /** Whether `access`'s replay allowance (replay-budget.ts) has room: reconnecting does not refill it. */
  mayReplay(access: Access): boolean;
  /** Counts bytes replayed to a stream of `access` against its replay allowance. */
  chargeReplay(access: Access, bytes: number): void;
  /** The streams open now (null: none yet), counted against the caps. */
  openStreams(): EventStreams | null;
  streams(): EventStreams;
  hello(deviceId: string, access: Access): HelloFrame;
  replayTo(ws: WebSocket, after: number): void;
}

/** A WebSocket upgrade (checked by the Worker): accepted, tagged with its credential, then hello and replay. */
export function acceptSocket(host: ConnectionHost, request: Request): Response {
  // Refusals travel back as a bare ErrorBody; the Worker turns them into its one error response.
  const socket = readSocketAccess(request);
  if (!socket.ok) return refuseSocket(socket.error);
  // The ticket is spent last: a connection refused for any other reason leaves it unspent.
  const refused =
    host.gate(socket.access) ??
    connectionRefusal(host.ctx, host.openStreams(), socket.access) ??
    replayRefusal(host, socket.access) ??
    host.spendTicket(request, socket.access);
  if (refused) return refuseSocket(refused);
  const deviceId = socket.device ?? `device-${crypto.randomUUID().slice(0, 8)}`;
  const { 0: client, 1: server } = new WebSocketPair();
  host.ctx.acceptWebSocket(server, [deviceId, socketTag(socket.access)]);
  server.serializeAttachment({
    deviceId,
    client: socket.client,
    ...socket.access,
  } satisfies SocketAttachment);
  server.send(JSON.stringify(host.hello(deviceId, socket.access)));
  host.replayTo(server, socket.after);
  return new Response(null, { status: 101, webSocket: client });
}

/** `GET …/events/stream` (checked by the Worker): hello, replay after the cursor, then live. */
export function acceptStream(host: ConnectionHost, request: Request): Response {
  const stream = readStreamAccess(request);
  if (!stream.ok) return refuseSocket(stream.error);
  const refused =
    host.gate(stream.access) ??
    connectionRefusal(host.ctx, host.openStreams(), stream.access) ??
    replayRefusal(host, stream.access) ??
    host.spendTicket(request, stream.access);
  if (refused) return refuseSocket(refused);
  const deviceId = stream.device ?? `stream-${crypto.randomUUID().slice(0, 8)}`;
  const { access } = stream;
  return host
    .streams()
    .open(stream.after, host.hello(deviceId, access), socketTag(access), (bytes) =>
      host.chargeReplay(access, bytes),
    );
}

function replayRefusal(host: ConnectionHost, access: Access): ErrorBody | null {
  if (host.mayReplay(access)) return null;
  return {
    code: "rate_limited",
    message: "Too much history replayed to this token in the last minute; connect again later",
  };
}

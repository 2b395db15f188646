// What a WebSocket connection may do: the Worker states who connected in a header (it checked the
// token), the object tags the socket with it (so revoking a link finds its sockets) and keeps it
// in the socket's attachment for every later command.
import * as z from "zod";
import { Access, OwnerVersion, Role, SignedInAs } from "../protocol/access/access";
import { DeviceId } from "../protocol/session/session";
import { describeZodError, type ErrorBody } from "../protocol/wire/errors";
import type { AckFrame } from "../protocol/wire/frames";

/** Set by the Worker on the upgrade request it forwards; a client's own value is overwritten. */
export const ACCESS_HEADER = "x-parley-access";

/** Close codes a device can act on: stop reconnecting and say why. */
export const SOCKET_CLOSE = { revoked: 4001, expired: 4002, deleted: 4004 } as const;

/** The kinds of device a socket may say it is: Parley's page (the default) or its terminal device. */
export const SocketClient = z.enum(["page", "terminal"]);
export type SocketClient = z.infer<typeof SocketClient>;

export const WebSocketQuery = z.object({
  after: z.coerce.number().int().nonnegative().default(0),
  device: DeviceId.optional(),
  /** Which client connects, recorded as the device kind of its answers (`parley attach` says terminal). */
  client: SocketClient.optional(),
  token: z.string().optional(),
});

/** What each socket keeps across hibernation: which device it is, and the access it connected with. */
export const SocketAttachment = z.object({
  deviceId: DeviceId,
  /** Absent on sockets accepted before clients said which they were: those were pages. */
  client: SocketClient.optional(),
  role: Role,
  linkId: z.string().nullable(),
  ownerVersion: OwnerVersion.optional(),
  /** Who Access signed in as when the socket connected: its answers count as that person. */
  signedInAs: SignedInAs.optional(),
});
export type SocketAttachment = z.infer<typeof SocketAttachment>;

export type SocketRequest =
  | { ok: true; access: Access; device: string | undefined; client: SocketClient; after: number }
  | { ok: false; error: ErrorBody };

export function readSocketAccess(request: Request): SocketRequest {
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return { ok: false, error: { code: "invalid_input", message: "Expected a WebSocket upgrade" } };
  }
  return readStreamAccess(request);
}

/** Who opened a connection (a WebSocket or an event stream) and from which cursor. */
export function readStreamAccess(request: Request): SocketRequest {
  const access = Access.safeParse(parseJson(request.headers.get(ACCESS_HEADER)));
  if (!access.success) return { ok: false, error: { code: "forbidden", message: "No access was stated" } };
  const query = WebSocketQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success)
    return { ok: false, error: { code: "invalid_input", message: describeZodError(query.error) } };
  const { device, client = "page", after } = query.data;
  return { ok: true, access: access.data, device, client, after };
}

/** The tag every socket of one link (or of the owner) carries. */
export function socketTag(access: Pick<Access, "linkId">): string {
  return access.linkId === null ? "owner" : `link:${access.linkId}`;
}

/** A refused upgrade: the ErrorBody alone; the Worker shapes the HTTP response from it. */
export function refuseSocket(error: ErrorBody): Response {
  return Response.json(error, { status: 400 });
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The device and access a socket connected with, read back from its attachment; null when the
 * attachment is missing or does not parse, and the socket may then do nothing (it fails closed).
 */
export function readAttachment(
  ws: WebSocket,
): { deviceId: string; client: SocketClient; access: Access } | null {
  const attachment = SocketAttachment.safeParse(ws.deserializeAttachment());
  if (!attachment.success) return null;
  const { deviceId, client = "page", ...stated } = attachment.data;
  const access = Access.safeParse(stated);
  return access.success ? { deviceId, client, access: access.data } : null;
}

export function sendAck(ws: WebSocket, frame: AckFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // The socket went away; the client resumes and reads the outcome from the event log.
  }
}

/** Sends `frame` to each socket; one closing mid-way must not stop the others. Says how many took it. */
export function sendToEvery(sockets: WebSocket[], frame: string): number {
  let sent = 0;
  for (const ws of sockets) {
    try {
      ws.send(frame);
      sent += 1;
    } catch {
      // Closed by the runtime since it was listed; the others still get the frame.
    }
  }
  return sent;
}

export function closeSocket(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // Already closed by the runtime; nothing to do.
  }
}

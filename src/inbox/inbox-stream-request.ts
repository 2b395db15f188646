// How the Worker opens an inbox stream on the person's Inbox object: it checked who asks, and
// states it in headers only it can set (the object is reachable from the Worker alone).
import * as z from "zod";

export const INBOX_PERSON_HEADER = "x-parley-person";
export const INBOX_TAG_HEADER = "x-parley-stream-tag";

/** The tag of streams the person opened themselves (not through an inbox link). */
export const PERSON_TAG = "person";

const Cursor = z.coerce.number().int().nonnegative();

export type InboxStreamRequest = {
  kind: "sse" | "ws";
  person: string;
  after: number;
  /** Who opened it: "person", or the inbox link's id, so revoking the link finds its streams. */
  tag: string;
};

export function readInboxStreamRequest(
  request: Request,
): ({ ok: true } & InboxStreamRequest) | { ok: false; message: string } {
  const url = new URL(request.url);
  const person = request.headers.get(INBOX_PERSON_HEADER);
  const tag = request.headers.get(INBOX_TAG_HEADER) ?? PERSON_TAG;
  const after = Cursor.safeParse(url.searchParams.get("after") ?? "0");
  if (!person || !after.success) return { ok: false, message: "Bad inbox stream request" };
  const kind = url.pathname.endsWith("/ws") ? "ws" : "sse";
  if (kind === "ws" && request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return { ok: false, message: "Expected a WebSocket upgrade request" };
  }
  return { ok: true, kind, person, after: after.data, tag };
}

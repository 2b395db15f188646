// Wire details of the session socket: its URL, the backoff schedule, and a small structural parser
// for server frames (the bundle carries protocol types only, not zod, to stay light).
import type { AckFrame, DeltaFrame, HelloFrame, SessionEvent } from "../src/protocol/index";

/** The subset of the WebSocket API the client uses; browsers' and Node's `ws` both fit. */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type ServerFrame =
  | { kind: "pong" }
  | { kind: "hello"; hello: HelloFrame }
  | { kind: "ack"; ack: AckFrame }
  /** Live model output, not stored; merged by offset with the stored copy that follows. */
  | { kind: "delta"; delta: DeltaFrame }
  /** `replay` marks a `batch` frame (stored events resent), as opposed to one live event. */
  | { kind: "events"; events: SessionEvent[]; replay: boolean; more: boolean };

/**
 * `ws(s)://…/api/sessions/:id/ws` with a credential, resume cursor and device id in the query: a
 * single-use ticket (`{ ticket }`), or the token itself for sockets that cannot ask for one.
 */
export function socketUrl(
  target: { baseUrl: string; sessionId: string; deviceId: string; client?: "page" | "terminal" | undefined },
  credential: { ticket: string } | { token: string },
  after: number,
): string {
  const url = new URL(`/api/sessions/${encodeURIComponent(target.sessionId)}/ws`, target.baseUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if ("ticket" in credential) url.searchParams.set("ticket", credential.ticket);
  else url.searchParams.set("token", credential.token);
  url.searchParams.set("after", String(after));
  url.searchParams.set("device", target.deviceId);
  // Which kind of device answers through this socket: the decision record names it.
  if (target.client) url.searchParams.set("client", target.client);
  return url.toString();
}

/** Exponential backoff with jitter: attempt 1 waits about `initialMs`, capped at `maxMs`. */
export function backoffDelay(
  attempt: number,
  initialMs: number,
  maxMs: number,
  random = Math.random,
): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.5 + random() * 0.5));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEvent(value: unknown): value is SessionEvent {
  return (
    isRecord(value) &&
    typeof value.seq === "number" &&
    typeof value.type === "string" &&
    typeof value.at === "number" &&
    isRecord(value.data)
  );
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isDelta(value: Record<string, unknown>): value is DeltaFrame {
  return (
    value.type === "delta" &&
    typeof value.turnId === "string" &&
    isCount(value.call) &&
    isCount(value.index) &&
    isCount(value.offset) &&
    typeof value.text === "string" &&
    (value.toolCallId === undefined || typeof value.toolCallId === "string")
  );
}

function textOf(data: unknown): string | null {
  if (typeof data === "string") return data;
  // Node's `ws` may hand over a Buffer; decode it rather than dropping the frame.
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data))
    return new TextDecoder().decode(data as ArrayBuffer);
  return null;
}

/** Parses one server frame; anything unrecognised yields `null` and is ignored. */
export function parseFrame(data: unknown): ServerFrame | null {
  const text = textOf(data);
  if (text === null) return null;
  if (text === "pong") return { kind: "pong" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  if (value.type === "hello" && isRecord(value.snapshot) && typeof value.deviceId === "string") {
    const snapshot = value.snapshot;
    if (!Array.isArray(snapshot.pending) || typeof snapshot.serverTime !== "number") return null;
    return { kind: "hello", hello: value as HelloFrame };
  }
  if (value.type === "ack" && typeof value.ok === "boolean") return { kind: "ack", ack: value as AckFrame };
  if (isDelta(value)) return { kind: "delta", delta: value };
  if (value.type === "batch" && Array.isArray(value.events)) {
    return { kind: "events", events: value.events.filter(isEvent), replay: true, more: value.more === true };
  }
  if (isEvent(value)) return { kind: "events", events: [value], replay: false, more: false };
  return null;
}

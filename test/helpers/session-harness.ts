// Drives the real Worker (router → Durable Object) from tests: HTTP calls, and devices with real
// WebSockets that record every frame and can wait for events.
import { env, exports } from "cloudflare:workers";
import type { AckFrame, HelloFrame, SessionEvent } from "../../src/protocol";
import { app } from "../../src/router/app";

// Loopback: with neither GATEWAY_TOKEN nor Access configured the Worker serves only this machine,
// and no request there is a person (calls that need one go through `asOperator`).
export const ORIGIN = "http://127.0.0.1:8787";

/** The gateway token of the runtime's Worker as `asOperator` configures it. */
export const OPERATOR_TOKEN = "gateway-token-of-the-worker-tests";
// One env object, so the Worker reads this configuration once; the bindings are the runtime's own.
const withGatewayToken = { ...env, GATEWAY_TOKEN: OPERATOR_TOKEN } as unknown as Env;

export interface CreatedSession {
  sessionId: string;
  token: string;
  shareUrl: string;
  websocketUrl: string;
}

export async function api(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  return exports.default.fetch(`${ORIGIN}${path}`, { method, headers, body });
}

/**
 * `api` against the same Worker with a GATEWAY_TOKEN, presenting it: the operator, the one person of
 * such a gateway (what an external session's creator must be).
 */
export async function asOperator(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${OPERATOR_TOKEN}`, ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return app.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }), withGatewayToken);
}

export async function createSession(body: Record<string, unknown> = {}): Promise<CreatedSession> {
  const response = await api("POST", "/api/sessions", { body });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as CreatedSession;
}

export class Device {
  readonly frames: unknown[] = [];
  readonly events: SessionEvent[] = [];
  readonly acks: AckFrame[] = [];
  hello: HelloFrame | null = null;
  closed = false;
  closeCode: number | null = null;
  private waiters: Array<() => void> = [];
  private nextRequest = 0;
  // Request ids are unique per connection, as a real client's must be.
  private readonly clientId = crypto.randomUUID().slice(0, 8);

  constructor(readonly socket: WebSocket) {
    socket.addEventListener("message", (message) => {
      const data = typeof message.data === "string" ? message.data : "";
      if (data === "pong") {
        this.frames.push("pong");
      } else {
        const frame = JSON.parse(data) as { type: string; seq?: number; events?: SessionEvent[] };
        this.frames.push(frame);
        if (frame.type === "hello") this.hello = frame as HelloFrame;
        else if (frame.type === "ack") this.acks.push(frame as unknown as AckFrame);
        else if (frame.type === "batch") this.events.push(...(frame.events ?? []));
        else if (typeof frame.seq === "number") this.events.push(frame as SessionEvent);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.addEventListener("close", (event) => {
      this.closed = true;
      this.closeCode = event.code;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves once `predicate` holds over what arrived, or rejects after `timeoutMs`. */
  async until<T>(predicate: () => T | undefined | false | null, what: string, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = predicate();
      if (value) return value;
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}; events: ${this.events.map((e) => e.type).join(",")}`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        // sleep-check: allow — a backstop re-check, since some conditions (recorded outbound requests) change without a frame.
        setTimeout(resolve, 50);
      });
    }
  }

  event<T extends SessionEvent["type"]>(
    type: T,
    match: (e: Extract<SessionEvent, { type: T }>) => boolean = () => true,
  ) {
    return this.events.find(
      (e): e is Extract<SessionEvent, { type: T }> => e.type === type && match(e as never),
    );
  }

  async waitForEvent<T extends SessionEvent["type"]>(
    type: T,
    match: (e: Extract<SessionEvent, { type: T }>) => boolean = () => true,
    timeoutMs?: number,
  ): Promise<Extract<SessionEvent, { type: T }>> {
    return this.until(() => this.event(type, match), `event ${type}`, timeoutMs);
  }

  /** Number of `done` events seen; waits for the n-th. */
  async waitForDone(n = 1, timeoutMs?: number) {
    await this.until(
      () => this.events.filter((e) => e.type === "done").length >= n,
      `${n} done event(s)`,
      timeoutMs,
    );
    return this.events.filter((e) => e.type === "done")[n - 1] as Extract<SessionEvent, { type: "done" }>;
  }

  sendRaw(data: string): void {
    this.socket.send(data);
  }

  /** Sends a command with a fresh requestId and waits for its ack. */
  async request(command: Record<string, unknown>): Promise<AckFrame> {
    const requestId = `${this.clientId}-${this.nextRequest++}`;
    this.socket.send(JSON.stringify({ ...command, requestId }));
    return this.until(() => this.acks.find((ack) => ack.requestId === requestId), `ack ${requestId}`);
  }

  seqs(): number[] {
    return this.events.map((e) => e.seq);
  }

  close(): void {
    if (!this.closed) this.socket.close(1000, "test done");
  }
}

export async function connect(
  session: Pick<CreatedSession, "sessionId" | "token">,
  options: { after?: number; device?: string; token?: string } = {},
): Promise<Device> {
  const params = new URLSearchParams({ token: options.token ?? session.token });
  if (options.after !== undefined) params.set("after", String(options.after));
  if (options.device) params.set("device", options.device);
  const response = await exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/ws?${params}`, {
    headers: { upgrade: "websocket" },
  });
  const socket = response.webSocket;
  if (!socket) throw new Error(`no websocket: ${response.status} ${await response.text()}`);
  socket.accept();
  const device = new Device(socket);
  await device.until(() => device.hello, "hello");
  return device;
}

/** A scripted reply with plain text. */
export function textReply(text: string, extra: Record<string, unknown> = {}) {
  return { content: [{ type: "text", text }], ...extra };
}

/** A scripted reply that calls tools. */
export function toolReply(
  calls: Array<{ name: string; input: Record<string, unknown>; id?: string }>,
  text?: string,
) {
  return {
    content: [
      ...(text ? [{ type: "text", text }] : []),
      ...calls.map((call) => ({ type: "tool_use", ...call })),
    ],
  };
}

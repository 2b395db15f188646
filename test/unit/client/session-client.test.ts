import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ConnectionInfo, SessionClient } from "../../../client/session-client";
import type { SocketLike } from "../../../client/session-socket";
import { hello } from "../web/events";

/** An in-memory socket the test plays the server for. */
class FakeSocket implements SocketLike {
  sent: string[] = [];
  closed = false;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  serve(frame: unknown) {
    this.onmessage?.({ data: typeof frame === "string" ? frame : JSON.stringify(frame) });
  }
  drop() {
    this.onclose?.({});
  }
  commands() {
    return this.sent.filter((s) => s !== "ping").map((s) => JSON.parse(s));
  }
}

const event = (seq: number) => ({ seq, at: seq, type: "error", data: { code: "x", message: `e${seq}` } });
// The client's backoff, ping and pong timers run on a fake clock that each test moves on.
const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(options: Partial<ConstructorParameters<typeof SessionClient>[0]> = {}) {
  const sockets: FakeSocket[] = [];
  const client = new SessionClient({
    baseUrl: "http://127.0.0.1:8787",
    sessionId: "s1",
    token: "tok",
    deviceId: "dev",
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    backoffInitialMs: 1,
    backoffMaxMs: 2,
    ...options,
  });
  const seen: number[] = [];
  const states: ConnectionInfo["state"][] = [];
  client.on("events", (events) => seen.push(...events.map((e) => e.seq)));
  client.on("connection", (info) => states.push(info.state));
  return { client, sockets, seen, states, last: () => sockets[sockets.length - 1]! };
}

describe("session client", () => {
  it("resumes after the last seen seq when the socket comes back, and drops duplicates", async () => {
    const { client, sockets, seen, last } = setup();
    client.connect();
    expect(new URL(last().url).searchParams.get("after")).toBe("0");
    last().serve(hello());
    last().serve({ type: "batch", events: [event(1), event(2)] });
    last().serve(event(3));
    last().drop();
    await tick(20);
    expect(sockets).toHaveLength(2);
    expect(new URL(last().url).searchParams.get("after")).toBe("3");
    last().serve(hello());
    last().serve({ type: "batch", events: [event(3), event(4)] });
    expect(seen).toEqual([1, 2, 3, 4]);
    client.close();
  });

  it("queues commands while disconnected and sends them once the server says hello", async () => {
    const { client, last } = setup();
    const reply = client.send({ type: "approve", toolCallId: "toolu_1", remember: true });
    client.connect();
    expect(last().commands()).toEqual([]);
    last().serve(hello());
    const [command] = last().commands();
    expect(command).toMatchObject({ type: "approve", toolCallId: "toolu_1", remember: true });
    last().serve({ type: "ack", requestId: command.requestId, ok: true, result: { status: "approved" } });
    await expect(reply).resolves.toEqual({ result: { status: "approved" }, alreadyResolved: false });
    client.close();
  });

  it("treats a late answer's already_resolved as success carrying the winning resolution", async () => {
    const { client, last } = setup();
    client.connect();
    last().serve(hello());
    const reply = client.send({ type: "submit_answers", toolCallId: "toolu_q", answers: { Q: "A" } });
    const { requestId } = last().commands()[0];
    const resolution = { outcome: "answered", response: { answers: { Q: "B" } }, resolvedBy: "phone" };
    last().serve({
      type: "ack",
      requestId,
      ok: false,
      error: { code: "already_resolved", message: "already answered", resolution },
    });
    await expect(reply).resolves.toEqual({ result: undefined, alreadyResolved: true, resolution });
    client.close();
  });

  it("rejects a refused command with its error code", async () => {
    const { client, last } = setup();
    client.connect();
    last().serve(hello());
    const reply = client.send({ type: "cancel" });
    last().serve({
      type: "ack",
      requestId: last().commands()[0].requestId,
      ok: false,
      error: { code: "nothing_to_cancel", message: "idle" },
    });
    await expect(reply).rejects.toMatchObject({ name: "CommandError", code: "nothing_to_cancel" });
    client.close();
  });

  it("resends every unacknowledged command after a reconnect with its original request id", async () => {
    const { client, last } = setup();
    client.connect();
    last().serve(hello());
    const message = client.send({ type: "send_message", text: "hello" });
    const answer = client.send({ type: "deny", toolCallId: "toolu_1", reason: "no" });
    const firstIds = last()
      .commands()
      .map((c) => c.requestId);
    last().drop();
    await tick(20);
    last().serve(hello());
    const resent = last().commands();
    expect(resent).toMatchObject([
      { type: "send_message", text: "hello" },
      { type: "deny", toolCallId: "toolu_1", reason: "no" },
    ]);
    expect(resent.map((c) => c.requestId)).toEqual(firstIds);
    last().serve({
      type: "ack",
      requestId: resent[0].requestId,
      ok: true,
      result: { messageId: "m1", duplicate: true },
    });
    last().serve({ type: "ack", requestId: resent[1].requestId, ok: true });
    await expect(message).resolves.toMatchObject({ result: { messageId: "m1" } });
    await expect(answer).resolves.toMatchObject({ alreadyResolved: false });
    client.close();
  });

  it("asks for the rest of a long replay when a batch says there is more", () => {
    const { client, last, seen } = setup();
    client.connect();
    last().serve(hello());
    last().serve({ type: "batch", events: [event(1), event(2)], more: true });
    expect(seen).toEqual([1, 2]);
    expect(last().commands()).toMatchObject([{ type: "resume", after: 2 }]);
    last().serve({ type: "batch", events: [event(3)] });
    expect(last().commands()).toHaveLength(1);
    client.close();
  });

  it("does not let a live event skip the rest of a long replay it arrived in the middle of", () => {
    const { client, last, seen } = setup();
    client.connect();
    last().serve(hello());
    last().serve({ type: "batch", events: [event(1), event(2)], more: true });
    // Broadcast before the server reads the resume: it is stored, so the next replay carries it.
    last().serve(event(9));
    last().serve({ type: "batch", events: [event(3), event(4), event(5), event(6), event(7), event(8)] });
    last().serve({ type: "batch", events: [event(9)] });
    last().serve(event(10));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(client.lastSeq).toBe(10);
    client.close();
  });

  it("gives request ids that differ between two clients, so a reload never looks like a resend", () => {
    const a = setup();
    const b = setup();
    a.client.connect();
    b.client.connect();
    a.last().serve(hello());
    b.last().serve(hello());
    void a.client.send({ type: "cancel" }).catch(() => {});
    void b.client.send({ type: "cancel" }).catch(() => {});
    expect(a.last().commands()[0].requestId).not.toBe(b.last().commands()[0].requestId);
    a.client.close();
    b.client.close();
  });

  it("pings, and reconnects when no pong comes back in time", async () => {
    // As deployed, the pong deadline ends before the next ping is due.
    const { client, sockets, states, last } = setup({ pingIntervalMs: 30, pongTimeoutMs: 10 });
    client.connect();
    last().serve(hello());
    await tick(30);
    expect(sockets[0]!.sent).toContain("ping");
    expect(sockets[0]!.closed).toBe(false);
    await tick(15);
    expect(sockets[0]!.closed).toBe(true);
    expect(sockets.length).toBeGreaterThan(1);
    expect(states).toContain("reconnecting");
    client.close();
  });

  it("drops a silent socket even when pings come more often than the pong deadline", async () => {
    const { client, sockets, last } = setup({ pingIntervalMs: 4, pongTimeoutMs: 10 });
    client.connect();
    last().serve(hello());
    await tick(16);
    // Pings went out at 4, 8, 12 and 16 ms; the deadline still runs from the first of them.
    expect(sockets[0]!.sent.filter((frame) => frame === "ping").length).toBeGreaterThan(2);
    expect(sockets[0]!.closed).toBe(true);
    client.close();
  });

  it("stays connected while pongs keep arriving", async () => {
    const { client, sockets, last } = setup({ pingIntervalMs: 10, pongTimeoutMs: 15 });
    client.connect();
    last().serve(hello());
    const answerPings = setInterval(() => last().serve("pong"), 5);
    await tick(60);
    clearInterval(answerPings);
    expect(sockets).toHaveLength(1);
    expect(client.connection.state).toBe("connected");
    client.close();
  });

  it("shows offline instead of reconnecting when the platform reports no network", async () => {
    const { client, states, last } = setup({ isOnline: () => false });
    client.connect();
    last().serve(hello());
    last().drop();
    expect(states.at(-1)).toBe("offline");
    client.close();
  });

  it("gives up on a socket that never says hello and tries again", async () => {
    const { client, sockets } = setup({ pongTimeoutMs: 10 });
    client.connect();
    await tick(40);
    expect(sockets[0]!.closed).toBe(true);
    expect(sockets.length).toBeGreaterThan(1);
    client.close();
  });

  it("skips the backoff wait when asked to reconnect now", async () => {
    const { client, sockets, last } = setup({ backoffInitialMs: 60_000, backoffMaxMs: 60_000 });
    client.connect();
    last().serve(hello());
    last().drop();
    expect(sockets).toHaveLength(1);
    client.reconnectNow();
    expect(sockets).toHaveLength(2);
    client.reconnectNow();
    expect(sockets).toHaveLength(2);
    client.close();
  });
});

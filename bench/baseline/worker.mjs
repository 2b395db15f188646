// The benchmark's floor: a Durable Object that only broadcasts. No validation, and no storage but
// its event counter (written after a request's sends, so it survives hibernation as Parley's does);
// it keeps recent events in memory so a reconnecting socket can be replayed the same way Parley does it.
import { DurableObject } from "cloudflare:workers";

/** Events kept in memory for replay; enough for the largest replay scenario. */
const MAX_KEPT_EVENTS = 50_000;
/** Same cap as Parley's replay frames (src/protocol/limits.ts), so frame counts are comparable. */
const MAX_REPLAY_FRAME_BYTES = 512 * 1024;
const MAX_BURST = 100_000;

export class BareBroadcast extends DurableObject {
  /** INVARIANT: lost on eviction; the benchmark replays only right after filling. */
  events = [];
  /** Survives hibernation, as Parley's does: devices drop any seq they have already seen. */
  seq = 0;
  /** INVARIANT: held long-polls, lost on eviction; the benchmark answers each right after opening it. */
  polls = [];

  constructor(ctx, env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
    ctx.blockConcurrencyWhile(async () => {
      this.seq = (await ctx.storage.get("seq")) ?? 0;
    });
  }

  // Called after a request's last send, so no frame of the measured path waits for this write's
  // commit (the output gate holds only what is sent after a write).
  rememberSeq() {
    this.ctx.storage.put("seq", this.seq);
  }

  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname.endsWith("/ws")) return this.accept(url);
    if (url.pathname.endsWith("/burst")) return this.burst(url);
    if (url.pathname.endsWith("/model")) return this.relayModel(url);
    if (url.pathname.endsWith("/card")) return this.card(url);
    // The external-agent floor: a long-poll held until the next command arrives.
    if (url.pathname.endsWith("/wait")) return new Promise((resolve) => this.polls.push(resolve));
    return new Response("not found", { status: 404 });
  }

  accept(url) {
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server);
    const after = Number(url.searchParams.get("after") ?? "0");
    server.send(JSON.stringify({ type: "hello", deviceId: "bare", snapshot: { lastSeq: this.seq } }));
    this.replay(server, after);
    return new Response(null, { status: 101, webSocket: client });
  }

  replay(socket, after) {
    let batch = [];
    let bytes = 0;
    for (const event of this.events) {
      if (event.seq <= after) continue;
      const json = JSON.stringify(event);
      if (batch.length > 0 && bytes + json.length > MAX_REPLAY_FRAME_BYTES) {
        socket.send(`{"type":"batch","events":[${batch.join(",")}]}`);
        batch = [];
        bytes = 0;
      }
      batch.push(json);
      bytes += json.length + 1;
    }
    if (batch.length > 0) socket.send(`{"type":"batch","events":[${batch.join(",")}]}`);
  }

  async burst(url) {
    const count = Math.min(Number(url.searchParams.get("n") ?? "0"), MAX_BURST);
    const paceMs = Number(url.searchParams.get("paceMs") ?? "0");
    const text = "x".repeat(Number(url.searchParams.get("chars") ?? "4"));
    // `restart=1` numbers from 1 again, for a refill after a hibernation lost the events in memory.
    if (url.searchParams.get("restart") === "1") {
      this.seq = 0;
      this.events = [];
    }
    for (let i = 0; i < count; i++) {
      if (paceMs > 0 && i > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
      this.broadcast("text_delta", { turnId: "bare", index: 0, text });
    }
    this.rememberSeq();
    return Response.json({ sent: count, lastSeq: this.seq, kept: this.events.length });
  }

  // The model-to-glass floor: call a Messages API (the benchmark's local one) and broadcast each
  // text delta the moment its line is read, with the least parsing that finds it.
  async relayModel(url) {
    const api = url.searchParams.get("api") ?? "";
    const prompt = url.searchParams.get("prompt") ?? "";
    const response = await fetch(`${api}/v1/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": "bench",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: "bench-model",
        max_tokens: 4096,
        stream: true,
        messages: [{ role: "user", content: prompt }],
      }),
    });
    if (!response.ok || !response.body) return new Response(`model ${response.status}`, { status: 502 });
    const decoder = new TextDecoder();
    let buffered = "";
    let deltas = 0;
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end = buffered.indexOf("\n");
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.startsWith("data: ") && line.includes('"text_delta"')) {
          const event = JSON.parse(line.slice(6));
          this.broadcast("text_delta", { turnId: "bare", index: 0, text: event.delta.text });
          deltas += 1;
        }
        end = buffered.indexOf("\n");
      }
    }
    this.broadcast("done", { turnId: "bare" });
    this.rememberSeq();
    return Response.json({ deltas, lastSeq: this.seq });
  }

  // The inbox floor: a card shows on this object's sockets, then one call makes another object
  // (the person's inbox) broadcast it too. No outbox, no storage, no alarm.
  async card(url) {
    this.broadcast("card", {});
    const inbox = url.searchParams.get("inbox") ?? "";
    const stub = this.env.BARE.get(this.env.BARE.idFromName(inbox));
    await stub.fetch(new Request(`https://bare/s/${inbox}/burst?n=1&paceMs=0&chars=4`, { method: "POST" }));
    this.rememberSeq();
    return Response.json({ lastSeq: this.seq });
  }

  broadcast(type, data) {
    this.seq += 1;
    const event = { seq: this.seq, at: Date.now(), type, data };
    this.events.push(event);
    if (this.events.length > MAX_KEPT_EVENTS) this.events.shift();
    const frame = JSON.stringify(event);
    for (const socket of this.ctx.getWebSockets()) socket.send(frame);
  }

  // A command round trip: the floor under Parley's answer-to-resume and many-sessions figures.
  webSocketMessage(socket, message) {
    let command;
    try {
      command = JSON.parse(String(message));
    } catch {
      return;
    }
    socket.send(JSON.stringify({ type: "ack", requestId: command.requestId ?? null, ok: true }));
    this.broadcast("echo", { requestId: command.requestId ?? null });
    for (const resolve of this.polls.splice(0)) resolve(Response.json({ seq: this.seq }));
    this.rememberSeq();
  }

  webSocketClose(socket, code) {
    try {
      socket.close(code === 1005 ? 1000 : code, "bye");
    } catch {
      // Already closed: nothing to do.
    }
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const match = url.pathname.match(/^\/s\/([\w-]{1,64})\/(ws|burst|model|card|wait)$/);
    if (!match) return new Response("bare broadcast baseline", { status: 200 });
    const stub = env.BARE.get(env.BARE.idFromName(match[1]));
    return stub.fetch(request);
  },
};

// InboxObject: one Durable Object per person, a projection of their sessions and open cards that
// sessions feed through their outboxes. Never the source of truth: answers go to the sessions.
import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../config";
import { PING, PONG } from "../protocol/frames";
import { OutboxBatch } from "../protocol/inbox";
import { EventStreams } from "../session/event-streams";
import { SqlCounter } from "../session/sql-counter";
import type { InboxRpc } from "./inbox-rpc";
import { migrateInbox } from "./inbox-schema";
import { InboxStore } from "./inbox-store";
import { type InboxStreamRequest, readInboxStreamRequest } from "./inbox-stream-request";

const REPLAY_PAGE = 500;

export class InboxObject extends DurableObject<Env> implements InboxRpc {
  private readonly store: InboxStore;
  // INVARIANT: open SSE responses of this instance only; a client whose stream ends reconnects
  // with Last-Event-ID and gets the rest from storage.
  private readonly streams: EventStreams;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateInbox(ctx.storage.sql);
    this.store = new InboxStore(new SqlCounter(ctx.storage.sql), () => Date.now());
    this.streams = new EventStreams(
      this.store,
      readConfig(env as unknown as Record<string, unknown>).sseHeartbeatMs,
    );
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  async apply(batch: OutboxBatch): Promise<{ appliedThrough: number }> {
    const parsed = OutboxBatch.parse(batch);
    const { frames, appliedThrough } = this.ctx.storage.transactionSync(() => this.store.apply(parsed));
    for (const frame of frames) this.broadcast(frame);
    return { appliedThrough };
  }

  async view(person: string) {
    return this.store.view(person);
  }

  async holds(sessionId: string): Promise<boolean> {
    return this.store.holds(sessionId);
  }

  /** `…/inbox/stream` (SSE) and `…/inbox/ws` (WebSocket): hello, replay after the cursor, then live. */
  override async fetch(request: Request): Promise<Response> {
    const opened = readInboxStreamRequest(request);
    if (!opened.ok) return Response.json({ code: "invalid_input", message: opened.message }, { status: 400 });
    const hello = { type: "hello" as const, view: this.store.view(opened.person) };
    if (opened.kind === "sse") return this.streams.open(opened.after, hello, opened.tag);
    return this.openSocket(opened, hello);
  }

  private openSocket(opened: InboxStreamRequest, hello: { type: "hello" }): Response {
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [opened.tag]);
    // Hello and replay are sent synchronously after accepting, so no live event slips between.
    server.send(JSON.stringify(hello));
    for (let cursor = opened.after; ; ) {
      const frames = this.store.framesAfter(cursor, REPLAY_PAGE);
      for (const frame of frames) server.send(frame);
      const last = frames[frames.length - 1];
      if (!last || frames.length < REPLAY_PAGE) break;
      cursor = (JSON.parse(last) as { seq: number }).seq;
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Closes every stream and socket opened with `tag` (a revoked inbox link). */
  async closeStreams(tag: string, code: number, reason: string): Promise<void> {
    this.streams.close(tag);
    for (const ws of this.ctx.getWebSockets(tag)) {
      try {
        ws.close(code, reason);
      } catch {
        // Already closing.
      }
    }
  }

  override async webSocketMessage(): Promise<void> {
    // The inbox socket only listens; commands go to each card's session over HTTP.
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    console.error("InboxObject.webSocketError", error);
    try {
      ws.close(1011, "Connection error");
    } catch {
      // Already closed.
    }
  }

  private broadcast(frame: string): void {
    this.streams.broadcast(frame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(frame);
      } catch {
        // A socket closing mid-broadcast must not stop the others.
      }
    }
  }
}

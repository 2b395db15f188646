// The base of every Parley Durable Object: it owns the handlers the runtime calls, the one clock,
// the one alarm over the deadline loop, the one transaction (`atomically`), broadcasting to sockets
// and event streams, and the test-only door. Each object is its rooms plus the hooks below.
import { DurableObject } from "cloudflare:workers";
import { type Config, configFor } from "../config";
import { INSIDE, type ObjectInsides } from "../object-shell";
import { PING, PONG } from "../protocol/wire/frames";
import { SqlCounter } from "../storage/sql-counter";
import { atomically } from "../storage/transaction";
import { DeadlineLoop, runAlarm } from "./deadline-loop";
import type { EventStreams } from "./event-streams";
import { ObjectClock } from "./object-clock";
import { closeSocket, sendToEvery } from "./socket-access";

/** The storage an object's parts share: its counted SQL and the deadline loop its alarm runs. */
export interface ObjectStores {
  readonly sql: SqlCounter;
  readonly deadlines: DeadlineLoop;
}

/** What the base's door offers every object: shadow reads, and dropping kept copies. */
export interface BaseInsides extends ObjectInsides {
  /** Drops the copies of stored rows the object keeps (a test changed storage behind its back). */
  forgetCopies(): void;
}

export abstract class ParleyObject extends DurableObject<Env> {
  /** The object's one clock: stores, deadlines, budgets and the alarm read it (tests move it forward). */
  readonly clock = new ObjectClock();
  /** Names the object in logs (`SessionObject.alarm: …`); class names do not survive bundling. */
  protected abstract readonly name: string;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A client's keep-alive is answered by the runtime, without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** The deployment's configuration, read once per env (src/config.ts) and on first use. */
  protected get config(): Config {
    return configFor(this.env);
  }

  /** The object's stores; null while it holds nothing (an erased or never-created session). */
  protected abstract stores(): ObjectStores | null;

  /** A counted SQL over this object's storage and a deadline loop whose rollback it drops. */
  protected newStores(): ObjectStores {
    const sql = new SqlCounter(this.ctx.storage.sql);
    const deadlines = new DeadlineLoop(this.ctx.storage);
    sql.keep(deadlines.copy);
    return { sql, deadlines };
  }

  /** Requests that are not RPC: socket upgrades, event streams, webhooks. */
  protected abstract onRequest(request: Request): Promise<Response>;

  /** A frame from one of the object's sockets; its errors are logged, never thrown to the runtime. */
  protected async onMessage(_ws: WebSocket, _message: string | ArrayBuffer): Promise<void> {
    // Objects whose sockets only listen take no frames.
  }

  /** Asked by a deadline source to run once the alarm's deadlines are drained (the session's agent loop). */
  protected onWake(): void {}

  /** Open event streams of this instance, which `broadcast` and `closeConnections` reach too. */
  protected openStreams(): EventStreams | null {
    return null;
  }

  /** Whether a socket hears the object's broadcast frames (an approver's socket gets its own view). */
  protected hears(_ws: WebSocket): boolean {
    return true;
  }

  override async fetch(request: Request): Promise<Response> {
    return this.onRequest(request);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    try {
      await this.onMessage(ws, message);
    } catch (error) {
      console.error(`${this.name}.webSocketMessage`, error);
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // 1005 (no code given) may not be sent back; a plain close answers it.
    closeSocket(ws, code === 1005 ? 1000 : code, reason);
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    console.error(`${this.name}.webSocketError`, error);
    closeSocket(ws, 1011, "Connection error");
  }

  /** The one alarm: a loop over the object's deadline sources (src/objects/deadline-loop.ts). */
  override async alarm(): Promise<void> {
    const stores = this.stores();
    if (!stores) return;
    await runAlarm(stores.deadlines, this.clock.now(), () => this.onWake(), this.name);
  }

  /**
   * One transaction (src/storage/transaction.ts); a rollback also drops the copies of rows the
   * stores keep (SqlCounter.keep). An object with deferred writes runs its own scope through it.
   */
  protected atomically<T>(work: () => T): T {
    const stores = this.stores();
    if (!stores) return this.ctx.storage.transactionSync(work);
    return atomically({ storage: this.ctx.storage, sql: stores.sql }, work);
  }

  /**
   * Sends `frame` to every open stream and hearing socket, or only to the sockets opened with `tag`
   * (a frame that is not a stored event); says how many sockets took it.
   */
  protected broadcast(frame: string, tag?: string): number {
    if (tag === undefined) this.openStreams()?.broadcast(frame);
    return sendToEvery(
      this.ctx.getWebSockets(tag).filter((ws) => this.hears(ws)),
      frame,
    );
  }

  /** Ends every stream and socket opened with `tag` (a revoked or expired link). */
  protected closeConnections(tag: string, code: number, reason: string): void {
    this.openStreams()?.close(tag);
    for (const ws of this.ctx.getWebSockets(tag)) closeSocket(ws, code, reason);
  }

  /** The test-only door (src/object-shell.ts); an object with more to show widens it. */
  [INSIDE](): BaseInsides {
    return {
      differences: async () => (await this.stores()?.sql.differences()) ?? [],
      forgetCopies: () => this.stores()?.sql.forgetCopies(),
    };
  }
}

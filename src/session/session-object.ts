// SessionObject: one Durable Object per session. A thin shell — it parses input, hands it to the
// agent core, and lets the stores persist and broadcast. All state lives in SQLite.
import type { Notifier } from "../notify/notifier";
import { INSIDE } from "../object-shell";
import type { SessionInit, SessionRpc, SessionStats } from "../objects/contracts/session";
import type { InboxAction, InboxActor } from "../objects/contracts/session-inbox";
import { EventStreams } from "../objects/event-streams";
import type { Outcome } from "../objects/outcome";
import { type ObjectStores, ParleyObject } from "../objects/parley-object";
import { Refusal } from "../objects/refusal";
import { ReplayBudget } from "../objects/replay-budget";
import { readAttachment } from "../objects/socket-access";
import { type Access, OWNER, type ShareLinkView } from "../protocol/access/access";
import type { PushSubscriptionBody } from "../protocol/reach/notify";
import type { SessionSnapshot } from "../protocol/session/session";
import type { SessionCommand } from "../protocol/wire/commands";
import type { ErrorBody } from "../protocol/wire/errors";
import { HttpCommandBudget } from "./budgets/http-command-budget";
import { SocketBudget } from "./budgets/socket-budget";
import { acceptConnection, answerFrame, type SocketShell } from "./connections/session-sockets";
import { eraseSession } from "./erase-session";
import { readAgentMessages } from "./external-messages";
import { ensureAgentLink, readExternal } from "./external-reads";
import { type InboxActionHost, runInboxAction } from "./inbox-actions";
import type { InboxReport } from "./inbox-report/inbox-report";
import { InteractionWaiters } from "./interaction-waiters";
import { addLink, revokeLink, rotateOwnerToken } from "./link-admin";
import { subscribePush, unsubscribePush } from "./push-subscriptions";
import { createSession, wasErased } from "./session-create";
import { SessionDoor } from "./session-door";
import { exportSession } from "./session-export";
import { admit, logIdsOf } from "./session-gate";
import type { SessionInsides } from "./session-insides";
import { sessionNotifier } from "./session-notifier";
import { answer, UNKNOWN_SESSION } from "./session-refusal";
import { buildSessionRuntime, type SessionRuntime } from "./session-runtime";
import type { SessionState } from "./session-state";
import { wireSessionState } from "./session-wiring";

export class SessionObject extends ParleyObject implements SessionRpc {
  protected readonly name = "SessionObject";
  // INVARIANT: the stores over this object's SQLite, built on first use; erasing the session
  // drops them so that nothing (no table, no row) is written again until a new `create`.
  private stateRef: SessionState | null = null;
  // INVARIANT: open SSE streams live only while this instance does (a stream keeps it awake);
  // a client whose stream ends reconnects with Last-Event-ID and gets the rest from storage.
  private streamsRef: EventStreams | null = null;
  // INVARIANT: built from the stores; pending deliveries and outbox rows are rows, so a new
  // instance loses nothing.
  private notifierRef: Notifier | null = null;
  private inboxReportRef: InboxReport | null = null;
  // INVARIANT: built lazily from stored settings; a new instance rebuilds the same thing.
  private runtime: SessionRuntime | null = null;
  private readonly budget = new SocketBudget(() => this.clock.now(), this.config);
  private httpBudget = new HttpCommandBudget(() => this.clock.now(), this.config);
  // INVARIANT: long-poll requests this instance answers now; see InteractionWaiters.
  private readonly waiters = new InteractionWaiters();
  // Not readonly: a test may swap in a smaller budget to flood it quickly.
  private replayBudget = new ReplayBudget(() => this.clock.now());
  /** Every command's one way in, from HTTP, a socket, the inbox or a chat (src/session/session-door.ts). */
  private readonly door = new SessionDoor({
    state: () => this.state,
    runtime: () => this.agent(),
    gate: (access) => this.gate(access),
    exists: () => this.exists(),
    allowance: () => this.httpBudget,
  });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A new instance that finds a turn running (a model call or a tool) knows its runner is gone
    // (after a deploy or a crash): bring the watchdog forward so recovery starts now, not minutes later.
    if (this.exists() && this.state.turn.current() && this.state.turn.status() === "running") {
      this.state.deadlines.setWatchdog(this.clock.now());
    }
  }

  private get state(): SessionState {
    if (!this.stateRef) {
      const wired = wireSessionState({
        storage: this.ctx.storage,
        config: this.config,
        env: this.env,
        clock: this.clock,
        waiters: this.waiters,
        broadcast: (frame) => this.broadcast(frame),
        notifier: () => this.notifier,
        agent: () => this.agent(),
        erase: (reason) => this.erase(reason),
        linkAdmin: () => this.linkAdmin,
      });
      this.stateRef = wired.state;
      this.inboxReportRef = wired.inboxReport;
    }
    return this.stateRef;
  }

  /** The stores, once the session exists: the alarm drains their deadlines. */
  protected stores(): ObjectStores | null {
    return this.exists() ? this.state : null;
  }

  protected override openStreams(): EventStreams | null {
    return this.streamsRef;
  }

  /** A deadline source woke the agent loop (a card timed out, the watchdog fired). */
  protected override onWake(): void {
    this.agent()
      .loop.advance()
      .catch((error: unknown) => console.error("SessionObject.alarm advance failed", error));
  }

  private get streams(): EventStreams {
    this.streamsRef ??= new EventStreams(this.state.events, this.config.sseHeartbeatMs);
    this.state.events.storedOnlyReaders = () => this.streamsRef?.size ?? 0;
    return this.streamsRef;
  }

  private get notifier(): Notifier {
    this.notifierRef ??= sessionNotifier(
      this.state,
      this.config,
      // The device's own credential must hold the socket: a device id is no secret, so another
      // token's socket claiming it must not stop this subscription's pushes.
      (deviceId, linkId) =>
        this.ctx.getWebSockets(deviceId).some((ws) => readAttachment(ws)?.access.linkId === linkId),
    );
    return this.notifierRef;
  }

  /** Whether this object holds a session; an erased or never-created one has no tables at all. */
  private exists(): boolean {
    if (this.stateRef) return this.stateRef.exists();
    const tables = this.ctx.storage.sql
      .exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`)
      .toArray();
    return tables.length > 0 && this.state.exists();
  }

  /** Called once by the Worker right after it picks a new session id. */
  async create(init: SessionInit) {
    return answer(() =>
      createSession(
        {
          exists: () => this.exists(),
          erased: () => wasErased(this.ctx.storage.sql),
          state: () => this.state,
          inboxReport: () => this.inboxReportRef,
          now: () => this.clock.now(),
        },
        init,
      ),
    );
  }

  async snapshot(access: Access = OWNER) {
    return this.guard(access, () => ({ ok: true, result: this.buildSnapshot() }));
  }

  async eventsPage(after: number, limit: number, access: Access = OWNER) {
    return this.guard(access, () => ({ ok: true, result: this.state.events.page(after, limit) }));
  }

  /** A command over HTTP, within its token's allowance. */
  async command(command: SessionCommand, deviceId: string | null, access = OWNER): Promise<Outcome> {
    return this.door.enter({ via: "http", access, deviceId }, command);
  }

  /** What the person's inbox asks, with the actor's own rights (src/session/inbox-actions.ts). */
  async fromInbox(actor: InboxActor, action: InboxAction): Promise<Outcome> {
    return answer(() => runInboxAction(this.linkAdmin, actor, action));
  }

  /** An external card as its agent reads it, after waiting up to `waitMs` for it to resolve. */
  async externalInteraction(interactionId: string, waitMs: number, access: Access) {
    return this.guard(access, () =>
      readExternal(this.state, this.waiters, interactionId, waitMs, () => this.exists()),
    );
  }

  /** The person's messages as an external agent's bridge reads them (src/session/external-messages.ts). */
  async agentMessages(query: { after: string | undefined; waitMs: number }, access: Access) {
    return this.guard(access, () => readAgentMessages(this.state, this.waiters, query, () => this.exists()));
  }

  /** The agent link of an external session: `linkId` while it lives, else a new one (`fallback`). */
  async ensureAgentLink(link: Pick<ShareLinkView, "linkId" | "label">, fallback: string) {
    return this.ifExists(() => ensureAgentLink(this.state.links, link, fallback));
  }

  /** Revokes an agent link and closes its sockets (its agent key was revoked). */
  async revokeAgentLink(linkId: string) {
    return this.ifExists(() => revokeLink(this.linkAdmin, linkId));
  }

  /** Stores this device's push subscription; `sessionUrl` carries the token the device presented. */
  async subscribePush(body: PushSubscriptionBody, access: Access, sessionUrl: string) {
    return this.guard(access, () => subscribePush(this.state, body, access, sessionUrl));
  }

  async unsubscribePush(deviceId: string, access: Access = OWNER) {
    return this.guard(access, () => unsubscribePush(this.state, deviceId, access));
  }

  /** The person who created the session; null for a session from before creators were recorded. */
  async creator(): Promise<string | null> {
    return this.exists() ? this.state.creator() : null;
  }

  /** The one delivery log (pushes, webhooks, reports to the inbox), newest first (owner only, checked by the Worker). */
  async deliveries(access: Access = OWNER) {
    return this.guard(access, () => {
      const deliveries = [...this.state.deliveries.list(), ...(this.inboxReportRef?.deliveries() ?? [])];
      deliveries.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      return { ok: true, result: { deliveries } };
    });
  }

  async stats(access: Access = OWNER) {
    return this.guard(access, () => {
      const stats: SessionStats = {
        ...this.state.stats(),
        sockets: this.ctx.getWebSockets().length,
        streams: this.streamsRef?.size ?? 0,
      };
      return { ok: true, result: stats };
    });
  }

  /** Records a share link the Worker signs next (owner only, checked by the Worker). */
  async addLink(
    link: Pick<ShareLinkView, "linkId" | "role" | "label" | "expiresAt">,
    access: Access = OWNER,
  ) {
    return this.guard(access, () => addLink(this.linkAdmin, link));
  }

  async listLinks(access: Access = OWNER) {
    return this.guard(access, () => ({ ok: true, result: { links: this.state.links.list() } }));
  }

  /** Revokes a link and closes its live sockets at once. */
  async revokeLink(linkId: string, access: Access = OWNER) {
    return this.guard(access, () => revokeLink(this.linkAdmin, linkId));
  }

  /** Retires the owner token `access` holds and closes its sockets and streams; the Worker signs the new version. */
  async rotateOwnerToken(access: Access) {
    return this.guard(access, () => rotateOwnerToken(this.linkAdmin));
  }

  /** Closes every socket and erases the session's storage, alarm included; the id then answers 404. */
  async destroy(access: Access = OWNER) {
    return this.guard(access, () => {
      this.erase("The session was deleted");
      return { ok: true, result: null };
    });
  }

  /** The transcript and event log as one JSON document (owner only, checked by the Worker). */
  async exportSession(access: Access = OWNER) {
    return this.guard(access, () => ({ ok: true, result: exportSession(this.state, this.buildSnapshot()) }));
  }

  /** A device's socket or event stream (src/session/connections/session-sockets.ts). */
  protected async onRequest(request: Request): Promise<Response> {
    return acceptConnection(this.sockets, request);
  }

  protected override async onMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await answerFrame(this.sockets, ws, message);
  }

  private get linkAdmin(): InboxActionHost {
    return {
      state: this.state,
      exists: () => this.exists(),
      enter: (actor, command) => this.door.enter({ via: "inbox", actor }, command),
      closeConnections: (tag, code, reason) => this.closeConnections(tag, code, reason),
      logIds: (access) => this.logIds(access),
    };
  }

  private get sockets(): SocketShell {
    return {
      ctx: this.ctx,
      state: () => this.state,
      now: () => this.clock.now(),
      budget: this.budget,
      replayBudget: () => this.replayBudget,
      openStreams: () => this.streamsRef,
      streams: () => this.streams,
      unstoredDelta: () => this.runtime?.loop.unstoredDelta(),
      gate: (access) => this.gate(access),
      logIds: (access) => this.logIds(access),
      snapshot: () => this.buildSnapshot(),
      run: (command, from, access) => this.door.enter({ via: "socket", access, ...from }, command),
    };
  }

  private gate(access: Access): ErrorBody | null {
    return this.exists() ? admit(this.state, access) : UNKNOWN_SESSION;
  }

  private logIds(access: Pick<Access, "linkId">): { sessionId: string; linkId: string | null } {
    return logIdsOf(this.state, access);
  }

  /** For the Worker's own calls, which no credential makes: the session must exist. */
  private ifExists<T>(work: () => Outcome<T>): Promise<Outcome<T>> {
    return answer(() => {
      if (!this.exists()) throw Refusal.from(UNKNOWN_SESSION);
      return work();
    });
  }

  /** Opens every RPC entry point: the session must exist and still admit `access`, else it refuses. */
  private guard<T>(access: Access, work: () => Outcome<T> | Promise<Outcome<T>>): Promise<Outcome<T>> {
    return answer(() => {
      const refused = this.gate(access);
      if (refused) throw Refusal.from(refused);
      return work();
    });
  }

  private erase(reason: string): void {
    const built = { state: this.stateRef, inboxReport: this.inboxReportRef, runtime: this.runtime };
    eraseSession(this.ctx, { ...built, streams: this.streamsRef }, reason);
    this.runtime = this.stateRef = this.notifierRef = this.inboxReportRef = this.streamsRef = null;
  }

  private agent(): SessionRuntime {
    this.runtime ??= buildSessionRuntime(this.state, this.config, this.env);
    return this.runtime;
  }

  /** The test-only door (src/object-shell.ts). */
  override [INSIDE](): SessionInsides {
    const object = this;
    return {
      get state() {
        return object.state;
      },
      model: () => this.agent().model,
      streamStatus: () => ({ open: this.streamsRef?.size ?? 0, beating: this.streamsRef?.beating ?? false }),
      untilWaitingReads: (n) => this.waiters.untilWaiting(n),
      forgetCopies: () => this.stateRef?.forgetCopies(),
      differences: async () => (await this.stateRef?.sql.differences()) ?? [],
      swap: (parts) => {
        if (parts.streams) this.streamsRef = parts.streams;
        if (parts.httpBudget) this.httpBudget = parts.httpBudget;
        if (parts.replayBudget) this.replayBudget = parts.replayBudget;
      },
    };
  }

  private buildSnapshot(): SessionSnapshot {
    return this.state.snapshot(this.agent().model, this.config, this.agent().deps.kinds);
  }
}

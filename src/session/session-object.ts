// SessionObject: one Durable Object per session. A thin shell — it parses input, hands it to the
// agent core, and lets the stores persist and broadcast. All state lives in SQLite.
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { timeOutDue } from "../agent/resolve-interaction";
import { type Config, configFor } from "../config";
import { logSecurityEvent } from "../log/security-log";
import type { ModelClient } from "../model/model-client";
import type { Notifier } from "../notify/notifier";
import { type Access, mayDecideBeyondCard, mayRun, OWNER, type ShareLinkView } from "../protocol/access";
import type { SessionCommand } from "../protocol/commands";
import type { ErrorBody } from "../protocol/errors";
import { type HelloFrame, PING, PONG } from "../protocol/frames";
import type { EventsPage } from "../protocol/http";
import type { PushSubscriptionBody } from "../protocol/notify";
import type { SessionSnapshot } from "../protocol/session";
import { answererOf } from "./answerer";
import { type CommandOutcome, executeCommand } from "./command-handler";
import { connectionRefusal } from "./connection-caps";
import { EventStreams } from "./event-streams";
import { ensureAgentLink, readExternal } from "./external-reads";
import { externalAgentOf, runExternalCommand, SqlExternalKeys } from "./external-session";
import type { InboxReport } from "./inbox-report";
import { InteractionWaiters } from "./interaction-waiters";
import { subscribePush, unsubscribePush } from "./push-subscriptions";
import { ReplayBudget } from "./replay-budget";
import { SessionClock } from "./session-clock";
import { exportSession } from "./session-export";
import { sessionInboxReport } from "./session-inbox-report";
import { sessionNotifier } from "./session-notifier";
import { answer, refuse, SessionRefusal, UNKNOWN_SESSION } from "./session-refusal";
import type { SessionRpc } from "./session-rpc";
import { buildSessionRuntime, type SessionRuntime } from "./session-runtime";
import { SessionState } from "./session-state";
import type { SessionInit, SessionStats } from "./session-types";
import {
  closeSocket,
  readAttachment,
  readSocketAccess,
  readStreamAccess,
  refuseSocket,
  SOCKET_CLOSE,
  type SocketAttachment,
  socketTag,
} from "./socket-access";
import { SocketBudget } from "./socket-budget";
import { answerSocketFrame } from "./socket-commands";
import { SpentTickets } from "./spent-tickets";

export class SessionObject extends DurableObject<Env> implements SessionRpc {
  private readonly config: Config;
  // INVARIANT: the stores over this object's SQLite, built on first use; erasing the session
  // drops them so that nothing (no table, no row) is written again until a new `create`.
  private stateRef: SessionState | null = null;
  // INVARIANT: open SSE streams live only while this instance does (a stream keeps it awake);
  // a client whose stream ends reconnects with Last-Event-ID and gets the rest from storage.
  private streamsRef: EventStreams | null = null;
  // INVARIANT: built from the stores; pending deliveries are rows, so a new instance loses nothing.
  private notifierRef: Notifier | null = null;
  // INVARIANT: built from the stores; undelivered outbox rows are rows, so a new instance loses nothing.
  private inboxReportRef: InboxReport | null = null;
  // INVARIANT: built lazily from stored settings; a new instance rebuilds the same thing.
  private runtime: SessionRuntime | null = null;
  private readonly budget: SocketBudget;
  // INVARIANT: long-poll requests this instance answers now; see InteractionWaiters.
  private readonly waiters = new InteractionWaiters();
  /** The one clock of this instance (tests move it forward instead of sleeping). */
  readonly clock = new SessionClock();
  // Not readonly: a test may swap in a smaller budget to flood it quickly.
  private replayBudget = new ReplayBudget(() => this.clock.now());

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.config = configFor(env);
    this.budget = new SocketBudget(
      () => this.clock.now(),
      this.config.socketCommandBurst,
      this.config.socketCommandsPerSecond,
    );
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
    // A new instance that finds a turn running (a model call or a tool) knows its runner is gone
    // (after a deploy or a crash): bring the watchdog forward so recovery starts now, not minutes later.
    if (this.exists() && this.state.turn.current() && this.state.turn.status() === "running") {
      this.state.deadlines.setWatchdog(this.clock.now());
    }
  }

  private get state(): SessionState {
    if (!this.stateRef) {
      this.stateRef = new SessionState(
        this.ctx.storage,
        (frame) => this.broadcast(frame),
        (event) => {
          this.notifier.onEvent(event);
          this.inboxReport.onEvent(event);
          if (event.type === "interaction_resolved") this.waiters.settle(event.data.interactionId ?? "");
        },
        this.config.retentionMs,
        this.clock,
      );
      // Built with the stores, so its deadline source is there before the alarm is first re-armed.
      this.inboxReportRef = sessionInboxReport(this.stateRef, this.config, this.env);
    }
    return this.stateRef;
  }

  private get inboxReport(): InboxReport {
    this.inboxReportRef ??= sessionInboxReport(this.state, this.config, this.env);
    return this.inboxReportRef;
  }

  private get spentTickets(): SpentTickets {
    return new SpentTickets(this.state.meta, () => this.clock.now());
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
      (deviceId) => this.ctx.getWebSockets(deviceId).length > 0,
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
  async create(init: SessionInit): Promise<CommandOutcome> {
    return answer(() => {
      if (this.exists()) {
        // A keyed external session's id is derived from its creator and key: asking again finds it.
        const agent = externalAgentOf(this.state.meta);
        if (init.agent?.key && agent?.key === init.agent.key) return { ok: true, result: { created: false } };
        refuse("invalid_input", "Session already exists");
      }
      this.state.initialize(init);
      this.inboxReport.onCreated(this.clock.now());
      this.state.deadlines.rearm();
      return { ok: true, result: { created: true } };
    });
  }

  async snapshot(access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => ({ ok: true, result: this.buildSnapshot() }));
  }

  async eventsPage(after: number, limit: number, access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => {
      const frames = this.state.events.framesAfter(after, limit + 1);
      const page: EventsPage = {
        events: frames.slice(0, limit).map((frame) => JSON.parse(frame)),
        lastSeq: this.state.events.lastSeq,
        hasMore: frames.length > limit,
      };
      return { ok: true, result: page };
    });
  }

  /** `answeredBy` names who sends it when the Worker knows better than the token (the inbox's person). */
  async command(
    command: SessionCommand,
    deviceId: string | null,
    access: Access = OWNER,
    answeredBy?: string,
  ): Promise<CommandOutcome> {
    return this.guard(access, () => {
      if (!mayRun(access.role, command.type))
        refuse("forbidden", `A ${access.role} link may not send ${command.type}`);
      if (!mayDecideBeyondCard(access.role, command))
        refuse(
          "forbidden",
          `Only the session's owner may always allow a tool or accept a plan with edits; a ${access.role} link may approve once`,
        );
      const { deps, loop } = this.agent();
      const keys = new SqlExternalKeys(this.state.sql);
      const external = runExternalCommand({ deps, meta: this.state.meta, keys }, command);
      if (external) return external;
      return executeCommand(
        {
          deps,
          loop,
          sentMessages: this.state.sentMessages,
          answeredBy: answeredBy ?? answererOf(this.state, access),
        },
        command,
        deviceId,
      );
    });
  }

  /** An external card as its agent reads it, after waiting up to `waitMs` for it to resolve. */
  async externalInteraction(interactionId: string, waitMs: number, access: Access): Promise<CommandOutcome> {
    return this.guard(access, () =>
      readExternal(this.state, this.waiters, interactionId, waitMs, () => this.exists()),
    );
  }

  /** The agent link of an external session: `linkId` while it lives, else a new one (`fallback`). */
  async ensureAgentLink(
    link: Pick<ShareLinkView, "linkId" | "label">,
    fallback: string,
  ): Promise<CommandOutcome> {
    return answer(() => {
      if (!this.exists()) throw new SessionRefusal(UNKNOWN_SESSION);
      return ensureAgentLink(this.state.links, link, fallback);
    });
  }

  /** Stores this device's push subscription; `sessionUrl` carries the token the device presented. */
  async subscribePush(
    body: PushSubscriptionBody,
    access: Access,
    sessionUrl: string,
  ): Promise<CommandOutcome> {
    return this.guard(access, () => subscribePush(this.state, body, access, sessionUrl));
  }

  async unsubscribePush(deviceId: string, access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => unsubscribePush(this.state, deviceId, access));
  }

  /** The person who created the session; null for a session from before creators were recorded. */
  async creator(): Promise<string | null> {
    return this.exists() ? this.state.creator() : null;
  }

  /** The push and webhook delivery log, newest first (owner only, checked by the Worker). */
  async deliveries(access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => ({ ok: true, result: { deliveries: this.state.deliveries.list() } }));
  }

  async stats(access: Access = OWNER): Promise<CommandOutcome> {
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
  ): Promise<CommandOutcome> {
    return this.guard(access, () => {
      const record =
        this.state.links.add(link) ?? refuse("too_many_links", "This session holds too many share links");
      this.state.deadlines.rearm(); // its expiry closes its sockets
      return { ok: true, result: record };
    });
  }

  async listLinks(access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => ({ ok: true, result: { links: this.state.links.list() } }));
  }

  /** Revokes a link and closes its live sockets at once. */
  async revokeLink(linkId: string, access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => {
      const link = this.state.links.revoke(linkId) ?? refuse("not_found", "No such share link");
      logSecurityEvent("link_revoked", this.logIds({ linkId }));
      this.state.deadlines.rearm();
      for (const ws of this.ctx.getWebSockets(socketTag({ linkId }))) {
        closeSocket(ws, SOCKET_CLOSE.revoked, "This share link was revoked");
      }
      this.streamsRef?.close(socketTag({ linkId }));
      this.state.subscriptions.deleteByLink(linkId);
      return { ok: true, result: link };
    });
  }

  /** Retires the owner token `access` holds and closes its sockets and streams; the Worker signs the new version. */
  async rotateOwnerToken(access: Access): Promise<CommandOutcome> {
    return this.guard(access, () => {
      const version = this.state.links.rotateOwner();
      logSecurityEvent("owner_token_rotated", this.logIds(OWNER));
      for (const ws of this.ctx.getWebSockets(socketTag(OWNER))) {
        closeSocket(ws, SOCKET_CLOSE.revoked, "The owner token was rotated");
      }
      this.streamsRef?.close(socketTag(OWNER));
      return { ok: true, result: { version } };
    });
  }

  /** Closes every socket and erases the session's storage, alarm included; the id then answers 404. */
  async destroy(access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => {
      this.erase("The session was deleted");
      return { ok: true };
    });
  }

  /** The transcript and event log as one JSON document (owner only, checked by the Worker). */
  async exportSession(access: Access = OWNER): Promise<CommandOutcome> {
    return this.guard(access, () => ({ ok: true, result: exportSession(this.state, this.buildSnapshot()) }));
  }

  override async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname.endsWith("/events/stream")) return this.openStream(request);
    // Refusals travel back as a bare ErrorBody; the Worker turns them into its one error response.
    const socket = readSocketAccess(request);
    if (!socket.ok) return refuseSocket(socket.error);
    const refused = this.gate(socket.access) ?? this.spentTickets.spend(request);
    if (refused) return refuseSocket(refused);
    const full = connectionRefusal(this.ctx, this.streamsRef, socket.access);
    if (full) return refuseSocket(full);
    const deviceId = socket.device ?? `device-${crypto.randomUUID().slice(0, 8)}`;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [deviceId, socketTag(socket.access)]);
    server.serializeAttachment({ deviceId, ...socket.access } satisfies SocketAttachment);
    // Hello and replay are sent synchronously after accepting, so no live event can slip between.
    const hello: HelloFrame = {
      type: "hello",
      deviceId,
      role: socket.access.role,
      snapshot: this.buildSnapshot(),
    };
    server.send(JSON.stringify(hello));
    this.replayTo(server, socket.after);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** `GET …/events/stream` (checked by the Worker): hello, replay after the cursor, then live. */
  private openStream(request: Request): Response {
    const stream = readStreamAccess(request);
    if (!stream.ok) return refuseSocket(stream.error);
    const refused =
      this.gate(stream.access) ??
      connectionRefusal(this.ctx, this.streamsRef, stream.access) ??
      this.spentTickets.spend(request);
    if (refused) return refuseSocket(refused);
    const deviceId = stream.device ?? `stream-${crypto.randomUUID().slice(0, 8)}`;
    const hello: HelloFrame = {
      type: "hello",
      deviceId,
      role: stream.access.role,
      snapshot: this.buildSnapshot(),
    };
    return this.streams.open(stream.after, hello, socketTag(stream.access));
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await answerSocketFrame(
      {
        budget: this.budget,
        gate: (access) => this.gate(access),
        replay: (socket, after) => {
          this.replayTo(socket, after);
          return this.state.events.lastSeq;
        },
        mayReplay: (socket) => this.replayBudget.allows(socket),
        logIds: (socket) => this.logIds({ linkId: readAttachment(socket)?.access.linkId ?? null }),
        run: (command, deviceId, access) => this.command(command, deviceId, access),
      },
      ws,
      message,
    );
  }

  // Stored events after the cursor, then what the model streamed since the last stored one, so a
  // device joining mid-stream has the exact text before the next live delta reaches it.
  private replayTo(ws: WebSocket, after: number): void {
    for (const frame of this.state.events.replayFrames(after)) {
      ws.send(frame);
      this.replayBudget.charge(ws, frame.length);
    }
    const unstored = this.runtime?.loop.unstoredDelta();
    if (unstored) ws.send(JSON.stringify(unstored));
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(ws, code === 1005 ? 1000 : code, reason);
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    console.error("SessionObject.webSocketError", error);
    closeSocket(ws, 1011, "Connection error");
  }

  override async alarm(): Promise<void> {
    if (!this.exists()) return;
    const { deps, loop } = this.agent();
    this.state.deadlines.fired();
    const now = deps.clock.now();
    const retention = this.state.retention.due(now);
    if (retention?.type === "expire") {
      this.erase("The session expired after its retention period without activity");
      return;
    }
    if (retention?.type === "warn") this.state.retention.warn(retention.expiresAt);
    for (const link of this.state.links.takeExpired(now)) {
      for (const ws of this.ctx.getWebSockets(socketTag(link))) {
        closeSocket(ws, SOCKET_CLOSE.expired, "This share link has expired");
      }
      this.streamsRef?.close(socketTag(link));
      this.state.subscriptions.deleteByLink(link.linkId);
    }
    // Deadlines are drained here and may throw, so the platform retries the alarm; the turn itself
    // runs on, like after any command, and reports its own failures as events.
    const timedOut = timeOutDue(deps, now) > 0;
    const resume = loop.checkWatchdog(now) || timedOut;
    this.state.deadlines.rearm();
    if (resume)
      loop.advance().catch((error: unknown) => console.error("SessionObject.alarm advance failed", error));
    // Notifications go out last: a slow push service or webhook must not hold up a timeout.
    if ((await this.notifier.deliverDue(now)) > 0) this.state.deadlines.rearm();
    await this.inboxReport.fire(now);
  }

  private gate(access: Access): ErrorBody | null {
    if (!this.exists()) return UNKNOWN_SESSION;
    const refused = this.state.links.admit(access);
    if (refused) logSecurityEvent("credential_refused", { ...this.logIds(access), reason: refused.code });
    return refused;
  }

  private logIds(access: Pick<Access, "linkId">): { sessionId: string; linkId: string | null } {
    return { sessionId: this.state.meta.get("session_id", z.string()) ?? "", linkId: access.linkId };
  }

  /**
   * Opens every RPC entry point: the session must exist and still admit `access` (the owner, for
   * the routes the Worker lets only the owner reach); refusals become a refused outcome.
   */
  private guard(
    access: Access,
    work: () => CommandOutcome | Promise<CommandOutcome>,
  ): Promise<CommandOutcome> {
    return answer(() => {
      const refused = this.gate(access);
      if (refused) throw new SessionRefusal(refused);
      return work();
    });
  }

  private erase(reason: string): void {
    this.inboxReportRef?.forget();
    this.stateRef?.deadlines.discard();
    this.runtime?.loop.halt();
    for (const ws of this.ctx.getWebSockets()) closeSocket(ws, SOCKET_CLOSE.deleted, reason);
    this.runtime = null;
    this.stateRef = null;
    this.notifierRef = null;
    this.inboxReportRef = null;
    this.streamsRef?.close();
    this.streamsRef = null;
    // Storage operations are ordered and covered by the output gate; no need to await here.
    void this.ctx.storage.deleteAlarm();
    void this.ctx.storage.deleteAll();
  }

  private agent(): SessionRuntime {
    this.runtime ??= buildSessionRuntime(this.state, this.config);
    return this.runtime;
  }

  /** Open SSE streams of this instance, and whether their heartbeat runs (tests check it stops). */
  get streamStatus(): { open: number; beating: boolean } {
    return { open: this.streamsRef?.size ?? 0, beating: this.streamsRef?.beating ?? false };
  }

  /** Long-poll reads this instance holds open (tests check a read really waits). */
  get waitingReads(): number {
    return this.waiters.size;
  }

  /** Resolves once this instance holds `n` long-poll reads open (tests wait on it, not a timer). */
  untilWaitingReads(n: number): Promise<void> {
    return this.waiters.untilWaiting(n);
  }

  /** The model client of this instance (tests read a scripted model's recorded requests). */
  get model(): ModelClient {
    return this.agent().model;
  }

  private buildSnapshot(): SessionSnapshot {
    return this.state.snapshot(this.agent().model, this.config);
  }

  private broadcast(frame: string): void {
    this.streamsRef?.broadcast(frame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(frame);
      } catch {
        // A socket closing mid-broadcast must not stop the others.
      }
    }
  }
}

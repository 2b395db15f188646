// The session's stores over one SQLite database, and the views built from them (snapshot, stats).
import * as z from "zod";
import type { AgentDeps } from "../agent/agent-deps";
import { markOf } from "../agent/frame-mark";
import type { Clock, TurnRecord } from "../agent/ports";
import type { Config } from "../config";
import type { InteractionRegistry } from "../interactions/registry";
import type { ModelClient } from "../model/model-client";
import { SqlDeliveryStore } from "../notify/delivery-store";
import { SqlSubscriptionStore } from "../notify/subscription-store";
import type { SessionInit, SessionStats } from "../objects/contracts/session";
import { MetaStore } from "../objects/meta-store";
import { ObjectClock } from "../objects/object-clock";
import { DeadlinePolicies } from "../protocol/cards/deadline-policy";
import { lazySchema } from "../protocol/lazy-schema";
import type { SessionSnapshot } from "../protocol/session/session";
import type { SessionEvent } from "../protocol/wire/events";
import type { DeferredWrites } from "../storage/deferred-writes";
import { SqlCounter } from "../storage/sql-counter";
import { atomically } from "../storage/transaction";
import { ProgressBudget } from "./budgets/progress-budget";
import { SqlCardApprovals } from "./card-approvals";
import { externalAgentView, recordExternalAgent } from "./external-session";
import { createModelClient, StoredScript } from "./model-factory";
import { SqlCardDeadlines } from "./stores/card-deadlines";
import { AlarmDeadlines } from "./stores/deadlines";
import { EventLog } from "./stores/event-log";
import { SqlFrameStore } from "./stores/frame-store";
import { SqlInteractionStore } from "./stores/interaction-store";
import { SqlMcpCallStore, SqlMcpStore } from "./stores/mcp-store";
import { SqlMessageQueue } from "./stores/message-queue";
import { SqlNotesStore } from "./stores/notes-store";
import { SqlPermissionRuleStore } from "./stores/permission-rule-store";
import { DEFAULT_RETENTION_MS, Retention } from "./stores/retention";
import { migrate } from "./stores/schema";
import { SentMessageLog } from "./stores/sent-message-log";
import { ShareLinks } from "./stores/share-links";
import { SqlToolResultStore } from "./stores/tool-result-store";
import { SqlToolStateStore } from "./stores/tool-state-store";
import { SqlTranscriptStore } from "./stores/transcript-store";
import { SqlTurnStore } from "./stores/turn-store";

/** Built once: the meta store keeps a number read with the same schema. */
const InteractionTimeoutMs = lazySchema(() => z.number().int().positive());

function modelRetryOf(turn: TurnRecord | null): SessionSnapshot["modelRetry"] {
  return turn?.retry ? { attempt: turn.retry.attempt, retryAt: turn.retry.at, code: turn.retry.code } : null;
}

export class SessionState {
  readonly sql: SqlCounter;
  readonly meta: MetaStore;
  // INVARIANT: true once `created_at` was seen; only erasing removes it, and that drops this state.
  private created = false;
  readonly events: EventLog;
  readonly turn: SqlTurnStore;
  readonly frames: SqlFrameStore;
  readonly transcript: SqlTranscriptStore;
  readonly queue: SqlMessageQueue;
  readonly interactions: SqlInteractionStore;
  readonly cardDeadlines: SqlCardDeadlines;
  readonly cardApprovals: SqlCardApprovals;
  readonly results: SqlToolResultStore;
  readonly rules: SqlPermissionRuleStore;
  readonly notes: SqlNotesStore;
  readonly toolState: SqlToolStateStore;
  readonly deadlines: AlarmDeadlines;
  readonly sentMessages: SentMessageLog;
  readonly subscriptions: SqlSubscriptionStore;
  readonly deliveries: SqlDeliveryStore;
  readonly mcp: SqlMcpStore;
  readonly mcpCalls: SqlMcpCallStore;
  readonly links: ShareLinks;
  readonly retention: Retention;
  /** Progress events per credential (in memory: a new instance starts each with a full burst). */
  readonly progressBudget: ProgressBudget;
  // Stores that keep rows in memory until the step's microtask turn ends, to write them in one
  // statement (besides the event log): written inside a transaction, dropped by its rollback.
  private readonly deferred: DeferredWrites[] = [];

  constructor(
    private readonly storage: DurableObjectStorage,
    broadcast: (frame: string) => number,
    afterAppend?: (event: SessionEvent) => void,
    retentionMs = DEFAULT_RETENTION_MS,
    // The object passes its own; a store built alone (a test) gets one of the same kind.
    readonly clock: Clock = new ObjectClock(),
  ) {
    const now = () => clock.now();
    migrate(storage.sql);
    this.sql = new SqlCounter(storage.sql);
    this.meta = new MetaStore(this.sql);
    this.events = new EventLog(this.sql, broadcast, now, afterAppend);
    this.turn = new SqlTurnStore(this.meta, this.events);
    this.frames = new SqlFrameStore(this.sql);
    this.transcript = new SqlTranscriptStore(this.sql, now, this.frames);
    this.queue = new SqlMessageQueue(this.sql, now);
    this.interactions = new SqlInteractionStore(this.sql);
    this.cardDeadlines = new SqlCardDeadlines(this.sql, () => this.interactions.pendingIds());
    this.cardApprovals = new SqlCardApprovals(this.sql, () => this.meta.string("creator"), this.meta);
    this.results = new SqlToolResultStore(this.sql, now);
    this.rules = new SqlPermissionRuleStore(this.sql, now);
    this.notes = new SqlNotesStore(this.sql, now);
    this.toolState = new SqlToolStateStore(this.sql, now);
    this.sentMessages = new SentMessageLog(this.sql, now);
    this.subscriptions = new SqlSubscriptionStore(this.sql, now);
    this.deliveries = new SqlDeliveryStore(this.sql, now);
    this.deadlines = new AlarmDeadlines(storage, this.meta);
    this.sql.keep(this.deadlines.copy);
    this.mcp = new SqlMcpStore(this.sql, this.meta);
    this.mcpCalls = new SqlMcpCallStore(this.sql, now);
    this.links = new ShareLinks(this.meta, now);
    this.retention = new Retention(this.meta, this.events, retentionMs);
    this.progressBudget = new ProgressBudget(now);
  }

  /** Registers a store whose writes wait for the end of the step (see `deferred`). */
  deferWrites(store: DeferredWrites): void {
    this.deferred.push(store);
  }

  /** The session is being erased: rows not yet written go with it. */
  discardWrites(): void {
    this.events.discard();
    for (const store of this.deferred) store.discard();
  }

  /** Drops the copies of stored rows the stores keep, so the next reads go to storage (a rollback). */
  forgetCopies(): void {
    this.sql.forgetCopies();
  }

  exists(): boolean {
    // Once created, a session exists for as long as this object holds it (erasing drops the state).
    this.created ||= this.meta.number("created_at") !== null;
    return this.created;
  }

  initialize(init: SessionInit): void {
    this.meta.set("session_id", init.sessionId);
    this.meta.set("mode", init.permissionMode);
    this.meta.set("status", "idle");
    if (init.systemPrompt) this.meta.set("system_prompt", init.systemPrompt);
    if (init.script) this.meta.set("script", init.script);
    if (init.interactionTimeoutMs) this.meta.set("interaction_timeout_ms", init.interactionTimeoutMs);
    if (init.shareUrl) this.meta.set("share_url", init.shareUrl);
    if (init.mcpServers?.length) this.mcp.select(init.mcpServers);
    if (init.creator) this.meta.set("creator", init.creator);
    if (init.agent) recordExternalAgent(this.meta, init.agent);
    if (init.deadlinePolicies) this.meta.set("deadline_policies", init.deadlinePolicies);
    this.meta.set("created_at", this.clock.now());
  }

  creator(): string | null {
    return this.meta.string("creator");
  }

  interactionTimeoutMs(config: Config): number {
    return this.meta.get("interaction_timeout_ms", InteractionTimeoutMs) ?? config.interactionTimeoutMs;
  }

  /** The session's own deadline policies, over the deployment's (set at creation). */
  deadlinePolicies(): DeadlinePolicies | null {
    return this.meta.get("deadline_policies", DeadlinePolicies);
  }

  createModel(config: Config): ModelClient {
    return createModelClient(config, this.meta.get("script", StoredScript), () => this.turn.nextModelCall());
  }

  agentDeps(
    parts: Pick<AgentDeps, "model" | "tools" | "kinds" | "agents" | "settings" | "cardDeadlines">,
  ): AgentDeps {
    return {
      ...parts,
      events: this.events,
      transcript: this.transcript,
      frames: this.frames,
      queue: this.queue,
      turn: this.turn,
      interactions: this.interactions,
      results: this.results,
      rules: this.rules,
      deadlines: this.deadlines,
      clock: this.clock,
      toolContext: (signal) => ({
        signal,
        notes: this.notes,
        toolState: this.toolState,
        fetch: (input, init) => fetch(input, init),
        now: () => this.clock.now(),
      }),
      atomically: (work) => this.atomically(work),
      newId: (prefix) => `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
    };
  }

  /** One SQLite transaction whose events are broadcast only once it commits. */
  atomically<T>(work: () => T): T {
    return atomically(
      {
        storage: this.storage,
        sql: this.sql,
        deferred: this.deferred,
        log: this.events,
        around: (run) => this.events.holdingBroadcasts(run),
      },
      work,
    );
  }

  snapshot(
    model: ModelClient,
    config: Config,
    kinds: Pick<InteractionRegistry, "readsChat">,
  ): SessionSnapshot {
    return {
      sessionId: this.meta.string("session_id") ?? "",
      status: this.turn.status(),
      mode: this.turn.mode(),
      lastSeq: this.events.lastSeq,
      pending: this.interactions.pending().map((record) => {
        const deadlinePolicy = this.cardDeadlines.terms(record.id);
        const approvals = this.cardApprovals.count(record.id);
        return {
          toolCallId: record.toolCallId,
          interactionId: record.id,
          kind: record.kind,
          toolName: record.toolName,
          request: record.request,
          status: record.status,
          createdAt: record.createdAt,
          expiresAt: record.deadline,
          ...(deadlinePolicy ? { deadlinePolicy } : {}),
          ...(approvals ? { approvals } : {}),
          ...(kinds.readsChat(record.kind) ? { readsChat: true as const } : {}),
          ...markOf(this, record.frameId),
        };
      }),
      queued: this.queue.size(),
      stack: this.frames.stack().map(({ frameId, agent, parentToolCallId, task, depth }) => ({
        frameId,
        agent,
        parentToolCallId,
        task,
        depth,
      })),
      model: model.name,
      demo: model.demo,
      interactionTimeoutMs: this.interactionTimeoutMs(config),
      serverTime: this.clock.now(),
      createdAt: this.meta.number("created_at") ?? 0,
      expiresAt: this.retention.expiresAt(),
      modelRetry: modelRetryOf(this.turn.current()),
      ...externalAgentView(this.meta),
    };
  }

  stats(): Omit<SessionStats, "sockets" | "streams"> {
    return {
      rowsWritten: this.sql.rowsWritten,
      rowsRead: this.sql.rowsRead,
      statements: this.sql.statements,
      storageBytes: this.sql.databaseSize,
      events: this.events.lastSeq,
      eventsByType: this.events.countsByType(),
      messages: this.transcript.count(),
    };
  }
}

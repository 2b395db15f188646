// What a session tells its creator's inbox (docs/inbox.md#the-inbox): card and status changes become outbox
// rows in the event's own transaction; the alarm delivers them (it is a deadline source) as the
// JSON stored for them, leased while sent and retried on the one delivery schedule, so the session
// never waits on it.
import * as z from "zod";
import { retryUntilDelivered } from "../../notify/delivery-rows";
import type { DeadlineSource } from "../../objects/deadline-source";
import type { InboxCardData, OutboxEntry } from "../../protocol/inbox/inbox";
import type { DeliveryView } from "../../protocol/reach/notify";
import type { EventData, SessionEvent } from "../../protocol/wire/events";
import { isPromptEvent } from "../../protocol/wire/prompt-event";
import type { SessionState } from "../session-state";
import { decisionOf } from "./decision-report";
import type { InboxRpc } from "./inbox-rpc";
import type { SqlOutbox } from "./outbox";

/**
 * How long a row waits before the alarm delivers it: one delivery then carries what a step wrote
 * together (a card and the status change around it), and the alarm's own work and writes stay off
 * the path from an answer to the next model text, which the output gate would otherwise hold.
 */
export const DELIVERY_DELAY_MS = 100;
/**
 * While a model call streams, rows that only update the session's summary (status, title, last
 * activity) wait for the call to end, at most this long: delivering them mid-stream would wake the
 * alarm, call the inbox and write the acknowledgement between live frames, and every write holds
 * the frames sent after it (the output gate). Card rows never wait: the inbox must not show a card
 * open that was answered, or miss one that opened.
 */
export const SUMMARY_HOLD_MS = 30_000;
/** Rows per delivery; the alarm comes straight back for the rest. */
const BATCH_ROWS = 100;
/** How long a batch taken for sending is held before another alarm (or a new instance) may send it again. */
const LEASE_MS = 60_000;
const TITLE_CHARS = 80;

/** The agent an external session was created for (its meta row); other sessions run Parley's own. */
const ExternalAgent = z.object({ name: z.string(), title: z.string().nullable() });

/** Events after which the inbox's summary of the session (status, title, last activity) changes. */
const SUMMARY_EVENTS = new Set<SessionEvent["type"]>([
  "user_message",
  "turn_started",
  "session_status",
  "tool_result",
  "agent_started",
  "agent_completed",
  "error",
  "done",
]);

export class InboxReport implements DeadlineSource {
  readonly name = "inbox report";
  // INVARIANT: true while this instance's delivery is in flight, so its re-arms do not read the
  // outbox for a batch whose end re-arms anyway; the batch's lease is what keeps it from going twice.
  private sending = false;

  constructor(
    private readonly state: SessionState,
    private readonly outbox: SqlOutbox,
    /** The creator's inbox; null when sessions report to no inbox (then nothing is written). */
    private readonly inbox: ((creator: string) => Pick<InboxRpc, "apply" | "forget">) | null,
  ) {}

  private creator(): string | null {
    return this.inbox ? this.state.meta.string("creator") : null;
  }

  /** Called right after the session is created, so its inbox lists it before anything happens. */
  onCreated(now: number): void {
    if (!this.creator()) return;
    this.outbox.add(this.summary(now), now);
    this.state.deadlines.rearm();
  }

  /** Called after each stored event, inside its transaction. Never throws. */
  onEvent(event: SessionEvent): void {
    try {
      if (!this.creator()) return;
      const entry = this.entryFor(event);
      if (!entry) return;
      if (event.type === "user_message" && !this.state.meta.string("title")) {
        this.state.meta.set("title", shorten(event.data.text));
      }
      this.outbox.add(entry, event.at);
      this.state.deadlines.rearm();
    } catch (error) {
      console.error("InboxReport.onEvent failed", error);
    }
  }

  /**
   * The session is being erased (deleted, or expired): its inbox drops it. Sent once, without
   * waiting, since the session's rows are about to go; a lost call leaves a stale entry behind.
   */
  forget(): void {
    try {
      const creator = this.creator();
      const sessionId = this.state.meta.string("session_id");
      if (!creator || !sessionId || !this.inbox) return;
      this.inbox(creator)
        .forget(sessionId)
        .catch((error: unknown) => console.warn("InboxReport.forget failed", error));
    } catch (error) {
      console.error("InboxReport.forget failed", error);
    }
  }

  /** When the alarm should next deliver, or null when nothing waits. */
  next(): number | null {
    // While a delivery is in flight its end re-arms; an earlier wake would only find it leased.
    if (!this.inbox || this.sending || !this.state.exists()) return null;
    const { oldest, oldestCard } = this.outbox.waiting();
    if (oldest === null) return null;
    const wait =
      oldestCard === null && this.state.deadlines.streaming() ? SUMMARY_HOLD_MS : DELIVERY_DELAY_MS;
    // Rows already tried go first, so nothing goes before their lease ends or their retry comes.
    return Math.max(oldest + wait, this.outbox.blockedUntil() ?? 0);
  }

  /** Delivers what is due; on failure schedules a retry. Never throws. */
  async fire(now: number): Promise<undefined> {
    const due = this.next();
    if (due === null || due > now) return;
    const creator = this.creator();
    const inbox = creator && this.inbox ? this.inbox(creator) : null;
    if (!inbox) return;
    const { rows, attempts } = this.outbox.lease(now, now + LEASE_MS, BATCH_ROWS);
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (!first || !last) return;
    this.sending = true;
    try {
      const sessionId = this.state.meta.string("session_id") ?? "";
      const { appliedThrough } = await inbox.apply({ sessionId, rows });
      const through = Math.min(appliedThrough, last.seq);
      this.outbox.acknowledge(through, first.seq);
      if (through < last.seq) this.outbox.retryLater(through + 1, last.seq, now, "not applied yet");
    } catch (error) {
      // The one schedule of every delivery, its last delay repeating: the rows must arrive in the end.
      const at = retryUntilDelivered(attempts, now);
      this.outbox.retryLater(first.seq, last.seq, at, error instanceof Error ? error.message : String(error));
      console.warn(`InboxReport: delivery failed (attempt ${attempts}), retrying in ${at - now} ms`, error);
    } finally {
      this.sending = false;
      this.state.deadlines.rearm();
    }
  }

  /** The reports in the session's delivery log, newest first. */
  deliveries(): DeliveryView[] {
    return this.outbox.deliveries();
  }

  private entryFor(event: SessionEvent): OutboxEntry | null {
    if (isPromptEvent(event)) {
      const data = event.data;
      return {
        type: "card_opened",
        card: {
          interactionId: data.interactionId ?? data.toolCallId,
          toolCallId: data.toolCallId,
          kind: data.kind,
          toolName: data.toolName,
          request: data.request,
          createdAt: data.createdAt,
          expiresAt: data.expiresAt,
          ...(data.deadlinePolicy ? { deadlinePolicy: data.deadlinePolicy } : {}),
          ...(data.approvals ? { approvals: data.approvals } : {}),
        },
      };
    }
    // "More time" or one more approval: the inbox's copy of the card takes the new deadline and the
    // approvals so far. Its own kind, so nothing that follows an opening (a push) runs again.
    if (event.type === "interaction_extended" || event.type === "approval_counted") {
      const card = this.pendingCard(event.data.interactionId);
      return card ? { type: "card_changed", card } : null;
    }
    // A rung of the card's ladder: the inbox's copy moves up it, and the inbox tells whom it names.
    if (event.type === "escalated") {
      const card = this.pendingCard(event.data.interactionId);
      const { afterMs, notify, to, rung, of } = event.data;
      return card ? { type: "card_escalated", card, rung: { afterMs, notify, to, rung, of } } : null;
    }
    if (event.type === "interaction_resolved") {
      const data = event.data as EventData<"interaction_resolved">;
      const interactionId = data.interactionId ?? data.toolCallId;
      const agent = this.state.meta.get("external_agent", ExternalAgent)?.name ?? "Parley";
      return {
        type: "card_resolved",
        interactionId,
        outcome: data.outcome,
        resolvedBy: data.resolvedBy,
        answeredBy: data.answeredBy ?? null,
        resolvedAt: data.resolvedAt,
        decision: decisionOf(
          agent,
          this.state.interactions.get(interactionId),
          data,
          this.state.cardApprovals.of(interactionId)?.approvers ?? [],
          this.escalations(interactionId),
        ),
      };
    }
    if (!SUMMARY_EVENTS.has(event.type)) return null;
    // The status event may be stored before the status it announces is.
    return this.summary(event.at, event.type === "session_status" ? event.data.status : undefined);
  }

  /** Card `id` as the inbox holds it, while it is open. */
  private pendingCard(id: string): InboxCardData | null {
    const record = this.state.interactions.get(id);
    if (record?.status !== "pending") return null;
    const deadlinePolicy = this.state.cardDeadlines.terms(record.id);
    const approvals = this.state.cardApprovals.count(record.id);
    return {
      interactionId: record.id,
      toolCallId: record.toolCallId,
      kind: record.kind,
      toolName: record.toolName,
      request: record.request,
      createdAt: record.createdAt,
      expiresAt: record.deadline,
      ...(deadlinePolicy ? { deadlinePolicy } : {}),
      ...(approvals ? { approvals } : {}),
    };
  }

  /** The rungs of card `id`'s ladder that ran, for its decision record. */
  private escalations(id: string) {
    const stored = this.state.cardDeadlines.get(id);
    if (!stored || stored.policy.escalate.length === 0) return [];
    return this.state.cardDeadlines.escalations.history(id, stored.policy.escalate);
  }

  private summary(lastActivity: number, status = this.state.turn.status()): OutboxEntry {
    const meta = this.state.meta;
    const external = meta.get("external_agent", ExternalAgent);
    return {
      type: "session_updated",
      session: {
        status,
        title: external?.title ?? meta.string("title"),
        agent: external?.name ?? "Parley",
        createdAt: meta.number("created_at") ?? lastActivity,
        lastActivity,
      },
    };
  }
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

// Card deadline policies over SQLite (docs/inbox.md#the-inbox): the policy each card opened with, its maximum,
// and its next reminder. The card's deadline itself stays on its interaction row.
import type { CardDeadlinePolicies, OpenedDeadline } from "../../agent/ports";
import {
  type CardDeadlineTerms,
  DEFAULT_DEADLINE_POLICY,
  type DeadlinePolicies,
  DeadlinePolicy,
  resolveDeadlinePolicy,
} from "../../protocol/cards/deadline-policy";
import type { Kept, SqlCounter } from "../../storage/sql-counter";
import { SqlCardEscalations } from "./card-escalations";

type Row = { interaction_id: string; policy: string; max_at: number; reminder_at: number | null };

/** A card's stored policy, and the latest its deadline may move to. */
export interface CardPolicy {
  policy: DeadlinePolicy;
  maxAt: number;
}

/** The first reminder after `after`: `deadline - offset` for some offset, or null when none is left. */
export function nextReminderAt(
  deadline: number,
  remindBeforeMs: readonly number[],
  after: number,
): number | null {
  let next: number | null = null;
  for (const offset of remindBeforeMs) {
    const at = deadline - offset;
    if (at > after && (next === null || at < next)) next = at;
  }
  return next;
}

export class SqlCardDeadlines {
  // Every card's next reminder, kept until `card_deadlines` changes and brought up to date by this
  // class's own writes. Which cards are pending comes from the interaction store's kept rows, so a
  // card answered or opened needs no query here: the alarm asks on every re-arm, several a step.
  private readonly reminders: Kept<Map<string, number>>;
  /** Each card's escalation ladder as it climbs. */
  readonly escalations: SqlCardEscalations;

  constructor(
    private readonly sql: SqlCounter,
    private readonly pendingIds: () => readonly string[],
  ) {
    this.escalations = new SqlCardEscalations(sql, pendingIds);
    this.reminders = sql.keptUntilWritten(
      ["card_deadlines"],
      () =>
        new Map(
          sql
            .all<{ interaction_id: string; reminder_at: number }>(
              `SELECT interaction_id, reminder_at FROM card_deadlines WHERE reminder_at IS NOT NULL`,
            )
            .map((row) => [row.interaction_id, row.reminder_at]),
        ),
    );
  }

  /** The earliest reminder of a pending card. */
  earliestReminder(): number | null {
    const reminders = this.reminders();
    if (reminders.size === 0) return null;
    let earliest: number | null = null;
    for (const id of this.pendingIds()) {
      const at = reminders.get(id);
      if (at !== undefined && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
  }

  /** The core's port: cards open under the policies `sources()` gives (config, then the session's). */
  policies(sources: () => ReadonlyArray<DeadlinePolicies | null>): CardDeadlinePolicies {
    return {
      open: (card) => this.open(card, resolveDeadlinePolicy(sources(), card.kind, card.toolName)),
      onDeadline: (id) => (this.get(id)?.policy.onDeadline === "cancel" ? "cancelled" : "timed_out"),
    };
  }

  /**
   * Stores `policy` for a new card. Deny and cancel take effect at the card's timeout; keep waiting
   * moves the deadline to the maximum, which is never shorter than the timeout.
   */
  open(card: { id: string; createdAt: number; timeoutMs: number }, policy: DeadlinePolicy): OpenedDeadline {
    const maxAt = card.createdAt + Math.max(card.timeoutMs, policy.maxWaitMs);
    const expiresAt = policy.onDeadline === "keep_waiting" ? maxAt : card.createdAt + card.timeoutMs;
    const reminderAt = nextReminderAt(expiresAt, policy.remindBeforeMs, card.createdAt);
    this.sql.run(
      ["card_deadlines"],
      `INSERT OR REPLACE INTO card_deadlines (interaction_id, policy, max_at, reminder_at) VALUES (?, ?, ?, ?)`,
      card.id,
      JSON.stringify(policy),
      maxAt,
      reminderAt,
    );
    this.keepReminder(card.id, reminderAt);
    this.escalations.open(card.id, card.createdAt, policy.escalate);
    return { expiresAt, terms: termsOf({ policy, maxAt }, 0) };
  }

  get(id: string): CardPolicy | null {
    const row = this.sql.one<Row>(`SELECT * FROM card_deadlines WHERE interaction_id = ?`, id);
    return row ? { policy: DeadlinePolicy.parse(JSON.parse(row.policy)), maxAt: row.max_at } : null;
  }

  /** A card's policy, or for a card opened before policies, the default one counted from its opening. */
  policyOf(card: { id: string; createdAt: number; deadline: number }): CardPolicy {
    return (
      this.get(card.id) ?? {
        policy: DEFAULT_DEADLINE_POLICY,
        maxAt: Math.max(card.deadline, card.createdAt + DEFAULT_DEADLINE_POLICY.maxWaitMs),
      }
    );
  }

  terms(id: string): CardDeadlineTerms | null {
    const stored = this.get(id);
    return stored
      ? termsOf(stored, stored.policy.escalate.length > 0 ? this.escalations.climbed(id).length : 0)
      : null;
  }

  setReminder(id: string, at: number | null): void {
    if (
      this.sql.run(
        ["card_deadlines"],
        `UPDATE card_deadlines SET reminder_at = ? WHERE interaction_id = ?`,
        at,
        id,
      ) > 0
    )
      this.keepReminder(id, at);
  }

  private keepReminder(id: string, at: number | null): void {
    this.reminders.patch((reminders) => {
      if (at === null) reminders.delete(id);
      else reminders.set(id, at);
      return reminders;
    });
  }

  /** Open cards whose next reminder is due at `now`. */
  remindersDue(now: number): Array<{ id: string; policy: DeadlinePolicy }> {
    return this.sql
      .all<Row>(
        `SELECT d.* FROM card_deadlines d JOIN interactions i ON i.id = d.interaction_id
         WHERE d.reminder_at IS NOT NULL AND d.reminder_at <= ? AND i.status = 'pending' ORDER BY d.reminder_at`,
        now,
      )
      .map((row) => ({ id: row.interaction_id, policy: DeadlinePolicy.parse(JSON.parse(row.policy)) }));
  }
}

function termsOf({ policy, maxAt }: CardPolicy, escalated: number): CardDeadlineTerms {
  return {
    onDeadline: policy.onDeadline,
    maxExpiresAt: maxAt,
    extendByMs: policy.extendByMs,
    // Only a card with a ladder carries one, so every other card's terms read as before.
    ...(policy.escalate.length > 0 ? { escalate: policy.escalate, escalated } : {}),
  };
}

// Card escalation ladders over SQLite (docs/inbox.md#the-inbox): for each card opened with a
// ladder, the rungs that ran (and when), and when the next one is due. The ladder itself is the
// card's stored deadline policy.
import * as z from "zod";
import type { EscalationRung } from "../../protocol/cards/deadline-policy";
import { lazySchema } from "../../protocol/lazy-schema";
import type { Kept, SqlCounter } from "../../storage/sql-counter";

/** When each rung that ran did, in the ladder's order. */
const Climbed = lazySchema(() => z.array(z.number()));

/** One rung that ran: the rung as the ladder says it, its place, and when. */
export interface ClimbedRung extends EscalationRung {
  rung: number;
  at: number;
}

export class SqlCardEscalations {
  // Every card's next rung, kept until `card_escalations` changes and brought up to date by this
  // class's own writes: the alarm asks on every re-arm, several a step.
  private readonly nextRungs: Kept<Map<string, number>>;

  constructor(
    private readonly sql: SqlCounter,
    private readonly pendingIds: () => readonly string[],
  ) {
    this.nextRungs = sql.keptUntilWritten(
      ["card_escalations"],
      () =>
        new Map(
          sql
            .all<{ interaction_id: string; next_at: number }>(
              `SELECT interaction_id, next_at FROM card_escalations WHERE next_at IS NOT NULL`,
            )
            .map((row) => [row.interaction_id, row.next_at]),
        ),
    );
  }

  /** A card opened at `createdAt` with `ladder`: its first rung is due `afterMs` later. */
  open(id: string, createdAt: number, ladder: readonly EscalationRung[]): void {
    const first = ladder[0];
    if (!first) return;
    const nextAt = createdAt + first.afterMs;
    this.sql.run(
      ["card_escalations"],
      `INSERT OR REPLACE INTO card_escalations (interaction_id, climbed, next_at) VALUES (?, '[]', ?)`,
      id,
      nextAt,
    );
    this.keepNext(id, nextAt);
  }

  /** The earliest next rung of a pending card; a resolved card's ladder stops where it stood. */
  earliest(): number | null {
    const next = this.nextRungs();
    if (next.size === 0) return null;
    let earliest: number | null = null;
    for (const id of this.pendingIds()) {
      const at = next.get(id);
      if (at !== undefined && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
  }

  /** Pending cards whose next rung is due at `now`, with the rungs they climbed so far. */
  due(now: number): Array<{ id: string; climbed: number[] }> {
    return this.sql
      .all<{ interaction_id: string; climbed: string }>(
        `SELECT e.interaction_id, e.climbed FROM card_escalations e JOIN interactions i ON i.id = e.interaction_id
         WHERE e.next_at IS NOT NULL AND e.next_at <= ? AND i.status = 'pending' ORDER BY e.next_at`,
        now,
      )
      .map((row) => ({ id: row.interaction_id, climbed: Climbed.parse(JSON.parse(row.climbed)) }));
  }

  /** Records that the card's next rung ran at `at`; `nextAt` is the rung after it, or null. */
  climb(id: string, climbed: readonly number[], nextAt: number | null): void {
    if (
      this.sql.run(
        ["card_escalations"],
        `UPDATE card_escalations SET climbed = ?, next_at = ? WHERE interaction_id = ?`,
        JSON.stringify(climbed),
        nextAt,
        id,
      ) > 0
    )
      this.keepNext(id, nextAt);
  }

  /** When each rung of the card's ladder that ran did (empty for a card without one). */
  climbed(id: string): number[] {
    const row = this.sql.one<{ climbed: string }>(
      `SELECT climbed FROM card_escalations WHERE interaction_id = ?`,
      id,
    );
    return row ? Climbed.parse(JSON.parse(row.climbed)) : [];
  }

  /** The rungs of `ladder` the card climbed, each with when. */
  history(id: string, ladder: readonly EscalationRung[]): ClimbedRung[] {
    return this.climbed(id).flatMap((at, rung) => {
      const step = ladder[rung];
      return step ? [{ ...step, rung, at }] : [];
    });
  }

  private keepNext(id: string, at: number | null): void {
    this.nextRungs.patch((next) => {
      if (at === null) next.delete(id);
      else next.set(id, at);
      return next;
    });
  }
}

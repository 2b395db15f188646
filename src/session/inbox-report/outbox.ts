// The session's outbox: changes for its creator's inbox, written in the same transaction as the
// event they follow, read in seq order by the delivery and deleted once the inbox confirmed them.
// A row travels as the JSON text stored for it: the inbox parses it once, where it receives it.
import * as z from "zod";
import type { MetaStore } from "../../objects/meta-store";
import type { OutboxEntry, OutboxRow } from "../../protocol/inbox/inbox";
import { atEndOfStep, type DeferredWrites } from "../../storage/deferred-writes";
import type { Kept, SqlCounter } from "../../storage/sql-counter";

const Retry = z.object({ attempts: z.number().int().positive(), at: z.number() });
export type OutboxRetry = z.infer<typeof Retry>;

/** When the oldest waiting row, and the oldest card row (anything but a summary), were written. */
export interface OutboxWaiting {
  oldest: number | null;
  oldestCard: number | null;
}

/** The oldest card row and the one summary row, as kept between writes. */
type Waiting = { card: number | null; summary: number | null };

export class SqlOutbox implements DeferredWrites {
  // Asked on every re-arm of the alarm, several times a step; kept until `outbox` changes, and
  // brought up to date by this class's own writes.
  private readonly kept: Kept<Waiting>;
  // INVARIANT: rows added and not yet written, in order, with at most one summary (the newest).
  // Written in one statement when the step's microtask turn ends, before anything reads the
  // table, and inside a transaction (SessionState.atomically); a rollback drops them.
  private unwritten: Array<{ type: OutboxEntry["type"]; json: string; at: number }> = [];
  private readonly flushSoon = atEndOfStep(
    () => this.flush(),
    (error) => this.sql.onDeferredWriteFailure(error),
  );

  constructor(
    private readonly sql: SqlCounter,
    private readonly meta: MetaStore,
  ) {
    this.kept = sql.keptUntilWritten(["outbox"], () => {
      const row = sql.one<Waiting>(
        `SELECT MIN(CASE WHEN type != 'session_updated' THEN at END) AS card,
                MAX(CASE WHEN type = 'session_updated' THEN at END) AS summary FROM outbox`,
      );
      return { card: row?.card ?? null, summary: row?.summary ?? null };
    });
  }

  /** What waits, and since when (rows not yet written included). */
  waiting(): OutboxWaiting {
    const { card, summary } = this.unwritten.reduce(withRow, this.kept());
    const oldest = card === null ? summary : summary === null ? card : Math.min(card, summary);
    return { oldest, oldestCard: card };
  }

  add(entry: OutboxEntry, at: number): void {
    // Only the latest summary of the session matters: an older one not yet delivered is replaced
    // (one summary row at most, by a unique index; REPLACE deletes it and inserts with a new seq).
    // A row already on its way may still arrive; the newer one follows it with a higher seq.
    if (entry.type === "session_updated") {
      this.unwritten = this.unwritten.filter((row) => row.type !== "session_updated");
    }
    this.unwritten.push({ type: entry.type, json: JSON.stringify(entry), at });
    this.flushSoon();
  }

  /**
   * Writes the rows added so far, in one statement. Rows storage refuses are dropped and the
   * failure thrown: the session's next summary says where it stands.
   */
  flush(): void {
    const rows = this.unwritten;
    if (rows.length === 0) return;
    try {
      this.sql.insertRows(
        ["outbox"],
        `INSERT OR REPLACE INTO outbox (type, entry, at)`,
        rows.map((row) => [row.type, row.json, row.at]),
      );
    } finally {
      this.unwritten = [];
    }
    // Taken only when they went in one statement (any other write since the read is not ours).
    this.kept.patch((waiting) => rows.reduce(withRow, waiting));
  }

  discard(): void {
    this.unwritten = [];
  }

  /** The oldest rows, in seq order, each entry as the JSON text stored for it. */
  oldest(limit: number): OutboxRow[] {
    this.flush();
    return this.sql.all<OutboxRow>(`SELECT seq, entry FROM outbox ORDER BY seq LIMIT ?`, limit);
  }

  size(): number {
    this.flush();
    return this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM outbox`)?.n ?? 0;
  }

  /** The inbox holds every row up to `seq`. */
  acknowledge(seq: number): void {
    this.flush();
    this.sql.run(["outbox"], `DELETE FROM outbox WHERE seq <= ?`, seq);
    // Read from the kept copy: most deliveries follow no failure, and need not write.
    if (this.retry()) this.meta.delete("outbox_retry");
  }

  retry(): OutboxRetry | null {
    return this.meta.get("outbox_retry", Retry);
  }

  setRetry(retry: OutboxRetry): void {
    this.meta.set("outbox_retry", retry);
  }
}

/** `waiting` after a row of `type` written at `at`: a summary replaces the one summary row. */
function withRow({ card, summary }: Waiting, row: { type: string; at: number }): Waiting {
  return row.type === "session_updated"
    ? { card, summary: row.at }
    : { card: card === null ? row.at : Math.min(card, row.at), summary };
}

// The session's outbox: changes for its creator's inbox, written in the same transaction as the
// event they follow, read in seq order by the delivery and deleted once the inbox confirmed them.
import * as z from "zod";
import type { MetaStore } from "../../objects/meta-store";
import { OutboxEntry, type OutboxRow } from "../../protocol/inbox";
import { atEndOfStep, type DeferredWrites } from "../../storage/deferred-writes";
import type { Kept, SqlCounter } from "../../storage/sql-counter";

const Retry = z.object({ attempts: z.number().int().positive(), at: z.number() });
export type OutboxRetry = z.infer<typeof Retry>;

/** Most entries kept unparsed for delivery (a few wait at a time; many only while the inbox fails). */
const OWN_ENTRIES = 500;

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
  // INVARIANT: the entries this instance added, by the JSON text stored for each, until the inbox
  // confirmed them: a row whose text is here was made from that very value and is sent without
  // parsing it back; any other row (one an earlier instance wrote) is parsed as stored JSON is.
  private readonly own = new Map<string, OutboxEntry>();
  /** The text of the one summary row `own` may hold: a newer summary replaces its row. */
  private ownSummary: string | null = null;
  /** What the last `oldest` read, so `acknowledge` drops their texts from `own`. */
  private lastRead: ReadonlyArray<{ seq: number; json: string }> = [];
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
    const json = JSON.stringify(entry);
    if (entry.type === "session_updated") {
      this.unwritten = this.unwritten.filter((row) => row.type !== "session_updated");
      if (this.ownSummary !== null) this.own.delete(this.ownSummary);
      this.ownSummary = json;
    }
    // Bounded however the deliveries fare: past it, rows are parsed as if another instance wrote them.
    if (this.own.size >= OWN_ENTRIES) this.own.clear();
    this.own.set(json, entry);
    this.unwritten.push({ type: entry.type, json, at });
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
    for (const row of this.unwritten) this.own.delete(row.json);
    this.unwritten = [];
  }

  /** The oldest rows, in seq order. */
  oldest(limit: number): OutboxRow[] {
    this.flush();
    const rows = this.sql.all<{ seq: number; entry: string }>(
      `SELECT seq, entry FROM outbox ORDER BY seq LIMIT ?`,
      limit,
    );
    this.lastRead = rows.map((row) => ({ seq: row.seq, json: row.entry }));
    return rows.map((row) => ({
      seq: row.seq,
      entry: this.own.get(row.entry) ?? OutboxEntry.parse(JSON.parse(row.entry)),
    }));
  }

  size(): number {
    this.flush();
    return this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM outbox`)?.n ?? 0;
  }

  /** The inbox holds every row up to `seq`. */
  acknowledge(seq: number): void {
    this.flush();
    this.sql.run(["outbox"], `DELETE FROM outbox WHERE seq <= ?`, seq);
    for (const row of this.lastRead) if (row.seq <= seq) this.own.delete(row.json);
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

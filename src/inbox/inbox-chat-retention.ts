// How long chat delivery rows keep what they hold: a deleted session's rows lose the card they
// carried at once (its messages are edited to "Withdrawn"), and the rows of a card that ended go on
// the alarm once kept for a while, so the inbox keeps no request text it no longer needs.
import type { Kept, SqlCounter } from "../storage/sql-counter";

/** How long a resolved card's rows are kept after their last send: late presses still get its receipt. */
export const CHAT_ROW_RETENTION_MS = 24 * 60 * 60_000;

/** What a deleted session's card messages keep of their card: nothing. */
export const ERASED_PAYLOAD = `{"erased":true}`;

// A row is done when nothing is left to send for it: a settled edit to a receipt (its message is
// done too), a settled reminder, or a message that never went out.
const DONE = `status != 'pending' AND (change IN ('resolved', 'reminder') OR (change = 'opened' AND status = 'failed'))`;

export class ChatRetention {
  /** When the oldest done row is due to go; asked on every re-arm, so kept until the table changes. */
  readonly nextPrune: Kept<number | null>;

  constructor(
    private readonly sql: SqlCounter,
    private readonly retentionMs = CHAT_ROW_RETENTION_MS,
  ) {
    this.nextPrune = sql.keptUntilWritten(["chat_deliveries"], () => {
      const oldest = sql.one<{ at: number | null }>(
        `SELECT MIN(updated_at) AS at FROM chat_deliveries WHERE ${DONE}`,
      )?.at;
      return oldest === null || oldest === undefined ? null : oldest + retentionMs;
    });
  }

  /**
   * Session `sessionId` was deleted: its card messages keep no card (their edits to "Withdrawn",
   * enqueued before, carry none), and what was never sent will not be.
   */
  erase(sessionId: string): void {
    // Every expression reads the row as it was: a pending message with an id was posted (its
    // redraw is dropped), one without never was.
    this.sql.run(
      ["chat_deliveries"],
      `UPDATE chat_deliveries SET payload = ?, progress = NULL, next_at = NULL,
         status = CASE WHEN status != 'pending' THEN status WHEN message_id IS NULL THEN 'failed' ELSE 'delivered' END,
         last_error = CASE WHEN status = 'pending' AND message_id IS NULL THEN 'session deleted' ELSE last_error END
       WHERE session_id = ? AND change IN ('opened', 'reminder')`,
      ERASED_PAYLOAD,
      sessionId,
    );
  }

  /** Drops the rows done longer than the retention, a receipt's message with it. */
  prune(now: number): void {
    const before = now - this.retentionMs;
    this.sql.run(
      ["chat_deliveries"],
      `DELETE FROM chat_deliveries WHERE change = 'opened' AND id IN (
         SELECT json_extract(payload, '$.opened') FROM chat_deliveries
         WHERE change = 'resolved' AND status != 'pending' AND updated_at <= ?)`,
      before,
    );
    this.sql.run(
      ["chat_deliveries"],
      `DELETE FROM chat_deliveries WHERE ${DONE} AND updated_at <= ?`,
      before,
    );
  }
}

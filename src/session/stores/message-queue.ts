// The session's message queue: user messages waiting for the running turn to finish, applied
// strictly in arrival order. Its table keeps its first name, `inbox`: renaming it would need a
// migration of every stored session for no change in behaviour.
import type { MessageQueue, QueuedMessage } from "../../agent/ports";
import type { SqlCounter } from "../../storage/sql-counter";

export class SqlMessageQueue implements MessageQueue {
  /** How many messages wait. Asked several times a step, whether a turn can start; kept until its table changes. */
  readonly size: () => number;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {
    this.size = sql.keptUntilWritten(
      ["inbox"],
      () => sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM inbox`)?.n ?? 0,
    );
  }

  push(message: QueuedMessage): void {
    this.sql.run(
      ["inbox"],
      `INSERT INTO inbox (id, position, text, at)
       VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM inbox), ?, ?)`,
      message.id,
      message.text,
      this.now(),
    );
  }

  shift(): QueuedMessage | null {
    if (this.size() === 0) return null;
    const row = this.sql.one<{ id: string; text: string }>(
      `SELECT id, text FROM inbox ORDER BY position LIMIT 1`,
    );
    if (!row) return null;
    this.sql.run(["inbox"], `DELETE FROM inbox WHERE id = ?`, row.id);
    return row;
  }
}

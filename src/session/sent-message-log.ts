// Remembers which request sent which message, so a device that resends after losing the ack gets
// the original result instead of posting the message twice. Only the most recent requests are kept.
import type { SqlCounter } from "./sql-counter";

const KEPT = 500;

export interface SentMessage {
  messageId: string;
  queued: boolean;
}

export class SentMessageLog {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  find(requestKey: string): SentMessage | null {
    const row = this.sql.one<{ message_id: string; queued: number }>(
      `SELECT message_id, queued FROM sent_messages WHERE request_key = ?`,
      requestKey,
    );
    return row ? { messageId: row.message_id, queued: row.queued === 1 } : null;
  }

  record(requestKey: string, sent: SentMessage): void {
    this.sql.run(
      `INSERT INTO sent_messages (request_key, message_id, queued, at) VALUES (?, ?, ?, ?)`,
      requestKey,
      sent.messageId,
      sent.queued ? 1 : 0,
      this.now(),
    );
    this.sql.run(`DELETE FROM sent_messages WHERE rowid <= (SELECT MAX(rowid) FROM sent_messages) - ?`, KEPT);
  }
}

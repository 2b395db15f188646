// Remembers which request sent which message, so a device that resends after losing the ack gets
// the original result instead of posting the message twice. A resend must carry the same text: a
// client that reuses a request id for new text (say, after a restart) still gets its message posted.
// Only the most recent requests are kept.
import type { SqlCounter } from "../../storage/sql-counter";

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

  find(requestKey: string, text: string): SentMessage | null {
    const row = this.sql.one<{ message_id: string; queued: number }>(
      `SELECT message_id, queued FROM sent_messages WHERE request_key = ? AND text_hash = ?`,
      requestKey,
      textHash(text),
    );
    return row ? { messageId: row.message_id, queued: row.queued === 1 } : null;
  }

  record(requestKey: string, text: string, sent: SentMessage): void {
    this.sql.run(
      ["sent_messages"],
      `INSERT INTO sent_messages (request_key, text_hash, message_id, queued, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (request_key) DO UPDATE SET text_hash = excluded.text_hash,
         message_id = excluded.message_id, queued = excluded.queued, at = excluded.at`,
      requestKey,
      textHash(text),
      sent.messageId,
      sent.queued ? 1 : 0,
      this.now(),
    );
    this.sql.run(
      ["sent_messages"],
      `DELETE FROM sent_messages WHERE rowid <= (SELECT MAX(rowid) FROM sent_messages) - ?`,
      KEPT,
    );
  }
}

// FNV-1a: a cheap 32-bit fingerprint; it only has to tell a resend from a different message.
function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

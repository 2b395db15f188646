// The messages a bot sent to ask for text (Telegram's forced replies): which card message and
// choice each asked for, kept in the channel object's SQLite so a reply that arrives after a
// restart still finds its card.

/** A prompt is answered within this long, or its reply is not taken. */
export const TEXT_PROMPT_TTL_MS = 24 * 60 * 60_000;

const SCHEMA = `CREATE TABLE IF NOT EXISTS text_prompts (
  platform TEXT NOT NULL, thread_id TEXT NOT NULL, message_id TEXT NOT NULL, account_id TEXT NOT NULL,
  ref INTEGER NOT NULL, code TEXT NOT NULL, asked_at INTEGER NOT NULL,
  PRIMARY KEY (platform, thread_id, message_id))`;

export interface TextPrompt {
  ref: number;
  code: string;
}

export class TextPrompts {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
  ) {
    sql.exec(SCHEMA);
  }

  /** Message `messageId` asked `accountId` for the text of choice `code` on card message `ref`. */
  asked(platform: string, threadId: string, messageId: string, accountId: string, prompt: TextPrompt): void {
    const now = this.now();
    this.sql.exec(`DELETE FROM text_prompts WHERE asked_at <= ?`, now - TEXT_PROMPT_TTL_MS);
    this.sql.exec(
      `INSERT INTO text_prompts (platform, thread_id, message_id, account_id, ref, code, asked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      platform,
      threadId,
      messageId,
      accountId,
      prompt.ref,
      prompt.code,
      now,
    );
  }

  /** What a reply of `accountId` to message `messageId` answers; null when that message asked it nothing. */
  find(platform: string, threadId: string, messageId: string, accountId: string): TextPrompt | null {
    const row = this.sql
      .exec<{ ref: number; code: string }>(
        `SELECT ref, code FROM text_prompts WHERE platform = ? AND thread_id = ? AND message_id = ?
         AND account_id = ? AND asked_at > ?`,
        platform,
        threadId,
        messageId,
        accountId,
        this.now() - TEXT_PROMPT_TTL_MS,
      )
      .toArray()[0];
    return row ? { ref: row.ref, code: row.code } : null;
  }
}

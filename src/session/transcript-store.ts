// The transcript exactly as sent to the Messages API, one row per message.
import { z } from "zod";
import type { StoredMessage, TranscriptStore } from "../agent/ports";
import type { ContentBlockParam, MessageParam } from "../model/model-client";
import type { SqlCounter } from "./sql-counter";

// Blocks are written only by the loop from Anthropic types; reading checks the envelope shape.
const Content = z.array(z.looseObject({ type: z.string() }));

type Row = { id: number; role: string; content: string };

export class SqlTranscriptStore implements TranscriptStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  messages(): MessageParam[] {
    return this.sql
      .all<Row>(`SELECT id, role, content FROM messages ORDER BY id`)
      .map((row) => ({ role: role(row.role), content: parseContent(row.content) }) as MessageParam);
  }

  last(): StoredMessage | null {
    const row = this.sql.one<Row>(`SELECT id, role, content FROM messages ORDER BY id DESC LIMIT 1`);
    return row ? { id: row.id, role: role(row.role), content: parseContent(row.content) } : null;
  }

  append(role: "user" | "assistant", content: ContentBlockParam[]): void {
    const last = this.last();
    if (role === "user" && last?.role === "user") {
      // tool_result blocks must open a user message, so merged text always goes after them.
      const merged = [...last.content, ...content];
      this.sql.run(`UPDATE messages SET content = ? WHERE id = ?`, JSON.stringify(merged), last.id);
      return;
    }
    this.sql.run(
      `INSERT INTO messages (role, content, at) VALUES (?, ?, ?)`,
      role,
      JSON.stringify(content),
      this.now(),
    );
  }

  count(): number {
    return this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM messages`)?.n ?? 0;
  }
}

function role(value: string): "user" | "assistant" {
  if (value !== "user" && value !== "assistant") throw new Error(`corrupt message role "${value}"`);
  return value;
}

function parseContent(json: string): ContentBlockParam[] {
  return Content.parse(JSON.parse(json)) as unknown as ContentBlockParam[];
}

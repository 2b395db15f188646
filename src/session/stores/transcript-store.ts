// The transcripts exactly as sent to the Messages API, one row per message, each row tagged with
// the frame (main agent or delegated agent) whose conversation it belongs to.
import * as z from "zod";
import type { FrameStore, StoredMessage, TranscriptStore } from "../../agent/ports";
import type { ContentBlockParam, MessageParam } from "../../model/model-client";
import { lazySchema } from "../../protocol/lazy-schema";
import { MAIN_FRAME_ID } from "../../protocol/session/agents";
import type { KeptPerKey, SqlCounter } from "../../storage/sql-counter";

// Blocks are written only by the loop from Anthropic types; reading checks the envelope shape.
const Content = lazySchema(() => z.array(z.looseObject({ type: z.string() })));

type Row = { id: number; role: string; content: string };

// Rows whose content passed the schema once, so a kept row is parsed, not checked again.
const checkedRows = new WeakSet<Row>();

export class SqlTranscriptStore implements TranscriptStore {
  // Rows as read, by frame, kept until `messages` changes: one step reads the last message and the
  // whole transcript several times between its writes (fitting the context, the request, appends).
  // Messages handed out are parsed afresh from them, since a caller may change what it was given.
  // An append takes its row into them rather than dropping them.
  private readonly keptRows: KeptPerKey<string, Row[]>;
  private readonly keptLastRows: KeptPerKey<string, Row | null>;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
    private readonly frames: Pick<FrameStore, "top">,
  ) {
    this.keptRows = sql.keptPerKey(["messages"], (frameId: string) =>
      sql.all<Row>(`SELECT id, role, content FROM messages WHERE frame_id = ? ORDER BY id`, frameId),
    );
    this.keptLastRows = sql.keptPerKey(["messages"], (frameId: string) =>
      sql.one<Row>(
        `SELECT id, role, content FROM messages WHERE frame_id = ? ORDER BY id DESC LIMIT 1`,
        frameId,
      ),
    );
  }

  messages(): MessageParam[] {
    return this.messagesOf(this.frameId());
  }

  messagesOf(frameId: string): MessageParam[] {
    return this.keptRows(frameId).map(
      (row) => ({ role: role(row.role), content: parseContent(row) }) as MessageParam,
    );
  }

  last(): StoredMessage | null {
    return this.lastOf(this.frameId());
  }

  append(role: "user" | "assistant", content: ContentBlockParam[]): void {
    const frameId = this.frameId();
    const last = this.lastOf(frameId);
    if (role === "user" && last?.role === "user") {
      // tool_result blocks must open a user message, so merged text always goes after them.
      const merged = JSON.stringify([...last.content, ...content]);
      this.sql.run(["messages"], `UPDATE messages SET content = ? WHERE id = ?`, merged, last.id);
      this.keepLast(frameId, { id: last.id, role, content: merged }, true);
      return;
    }
    const json = JSON.stringify(content);
    const inserted = this.sql.runReturning<{ id: number }>(
      ["messages"],
      `INSERT INTO messages (role, content, at, frame_id) VALUES (?, ?, ?, ?) RETURNING id`,
      role,
      json,
      this.now(),
      frameId,
    );
    if (inserted) this.keepLast(frameId, { id: inserted.id, role, content: json }, false);
  }

  // After an append wrote `row` as the frame's last message (replacing the last one when merged).
  private keepLast(frameId: string, row: Row, replaced: boolean): void {
    this.keptRows.patch((kept) => {
      const rows = kept.get(frameId);
      if (rows && replaced) rows[rows.length - 1] = row;
      else if (rows) rows.push(row);
    });
    this.keptLastRows.patch((kept) => {
      kept.set(frameId, row);
    });
  }

  /** Replaces the current frame's transcript (clearing old tool results, compaction). */
  rewrite(messages: MessageParam[]): void {
    const frameId = this.frameId();
    this.sql.run(["messages"], `DELETE FROM messages WHERE frame_id = ?`, frameId);
    const at = this.now();
    for (const message of messages) {
      const content =
        typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      this.sql.run(
        ["messages"],
        `INSERT INTO messages (role, content, at, frame_id) VALUES (?, ?, ?, ?)`,
        message.role,
        JSON.stringify(content),
        at,
        frameId,
      );
    }
  }

  /** Messages of every frame. */
  count(): number {
    return this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM messages`)?.n ?? 0;
  }

  private frameId(): string {
    return this.frames.top()?.frameId ?? MAIN_FRAME_ID;
  }

  private lastOf(frameId: string): StoredMessage | null {
    const row = this.lastRowOf(frameId);
    return row ? { id: row.id, role: role(row.role), content: parseContent(row) } : null;
  }

  private lastRowOf(frameId: string): Row | null {
    const rows = this.keptRows.peek(frameId);
    if (rows) return rows[rows.length - 1] ?? null;
    return this.keptLastRows(frameId);
  }
}

function role(value: string): "user" | "assistant" {
  if (value !== "user" && value !== "assistant") throw new Error(`corrupt message role "${value}"`);
  return value;
}

function parseContent(row: Row): ContentBlockParam[] {
  const content = JSON.parse(row.content) as unknown;
  if (checkedRows.has(row)) return content as ContentBlockParam[];
  const checked = Content.parse(content) as unknown as ContentBlockParam[];
  checkedRows.add(row);
  return checked;
}

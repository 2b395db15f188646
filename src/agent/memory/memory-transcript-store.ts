// The transcripts in memory, one list per frame, behaving like the SQLite store (same contract).
import type { ContentBlockParam, MessageParam } from "../../model/model-client";
import { MAIN_FRAME_ID } from "../../protocol/session/agents";
import type { FrameStore, StoredMessage, TranscriptStore } from "../ports";

export class MemoryTranscriptStore implements TranscriptStore {
  readonly #rows: (StoredMessage & { frameId: string })[] = [];
  #nextId = 1;

  constructor(private readonly frames: Pick<FrameStore, "top">) {}

  messages(): MessageParam[] {
    return this.messagesOf(this.#frameId());
  }

  /** One frame's transcript, whether or not it is on top (for inspection). */
  messagesOf(frameId: string): MessageParam[] {
    return this.#rows
      .filter((row) => row.frameId === frameId)
      .map((row) => ({ role: row.role, content: structuredClone(row.content) }) as MessageParam);
  }

  last(): StoredMessage | null {
    const row = this.#lastOf(this.#frameId());
    return row ? { id: row.id, role: row.role, content: structuredClone(row.content) } : null;
  }

  append(role: "user" | "assistant", content: ContentBlockParam[]): void {
    const frameId = this.#frameId();
    const last = this.#lastOf(frameId);
    if (role === "user" && last?.role === "user") {
      last.content = [...last.content, ...structuredClone(content)];
      return;
    }
    this.#rows.push({ id: this.#nextId++, role, content: structuredClone(content), frameId });
  }

  /** Replaces the current frame's transcript (clearing old tool results, compaction). */
  rewrite(messages: MessageParam[]): void {
    const frameId = this.#frameId();
    const kept = this.#rows.filter((row) => row.frameId !== frameId);
    this.#rows.length = 0;
    this.#rows.push(...kept);
    for (const message of messages) {
      const content: ContentBlockParam[] =
        typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      const role = message.role === "assistant" ? "assistant" : "user";
      this.#rows.push({ id: this.#nextId++, role, content: structuredClone(content), frameId });
    }
  }

  /** Messages of every frame. */
  count(): number {
    return this.#rows.length;
  }

  #frameId(): string {
    return this.frames.top()?.frameId ?? MAIN_FRAME_ID;
  }

  #lastOf(frameId: string): (StoredMessage & { frameId: string }) | undefined {
    return this.#rows.findLast((row) => row.frameId === frameId);
  }
}

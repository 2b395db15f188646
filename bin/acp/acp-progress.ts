// ACP `session/update` notifications as Parley progress events: agent text (its streamed chunks
// joined into one event per stretch of text), tool calls started and finished, the plan, and
// whether the agent is working. Pure: the caller posts what it returns.
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import type { ProgressEvent } from "../../client/client";
import { MAX_MESSAGE_CHARS, MAX_TEXT_FIELD_CHARS } from "../../src/protocol/limits";

const STATUS_MARK: Record<string, string> = { completed: "[x]", in_progress: "[~]", pending: "[ ]" };

/** A tool call id as Parley stores one: word characters and dashes, at most 128. */
export function progressToolId(id: string): string {
  return id.replace(/[^\w-]/g, "-").slice(0, 128) || "tool";
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function textOf(block: ContentBlock | undefined): string {
  if (!block) return "";
  if (block.type === "text") return block.text;
  if (block.type === "resource_link") return block.uri;
  return "";
}

function resultOf(update: { rawOutput?: unknown; content?: Array<{ type: string }> | null }): string {
  if (update.rawOutput !== undefined && update.rawOutput !== null) {
    const raw = typeof update.rawOutput === "string" ? update.rawOutput : JSON.stringify(update.rawOutput);
    return clip(raw, MAX_TEXT_FIELD_CHARS);
  }
  const texts = (update.content ?? []).map((block) =>
    block.type === "content" ? textOf((block as unknown as { content: ContentBlock }).content) : "",
  );
  return clip(texts.join("\n"), MAX_TEXT_FIELD_CHARS);
}

/** One ACP session's progress, in the order its updates arrive. */
export class AcpProgress {
  private text = "";
  private readonly names = new Map<string, string>();
  private readonly finished = new Set<string>();

  /** The person's prompt starts a turn; `messageId` when it is a message they sent in Parley. */
  prompt(blocks: ContentBlock[], messageId?: string): ProgressEvent[] {
    const text = clip(blocks.map(textOf).join("\n").trim(), MAX_MESSAGE_CHARS);
    return [
      ...this.flush(),
      ...(text ? [{ type: "prompt" as const, text, ...(messageId ? { messageId } : {}) }] : []),
      { type: "status", state: "running" },
    ];
  }

  /** The turn ended (the prompt's response, or its failure). */
  stopped(): ProgressEvent[] {
    return [...this.flush(), { type: "status", state: "idle" }];
  }

  /** Agent text gathered so far, as one event. */
  flush(): ProgressEvent[] {
    const text = this.text.trim();
    this.text = "";
    return text ? [{ type: "text", text: clip(text, MAX_MESSAGE_CHARS) }] : [];
  }

  update(update: SessionUpdate): ProgressEvent[] {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
        this.text += textOf(update.content);
        return [];
      case "tool_call": {
        const name = clip(update.title || update.kind || "tool", 128);
        this.names.set(update.toolCallId, name);
        const started: ProgressEvent = {
          type: "tool_started",
          toolUseId: progressToolId(update.toolCallId),
          name,
          input: update.rawInput ?? {},
        };
        return [...this.flush(), started, ...this.finish(update)];
      }
      case "tool_call_update":
        if (update.title && !this.names.has(update.toolCallId))
          this.names.set(update.toolCallId, clip(update.title, 128));
        return this.finish(update);
      case "plan": {
        const lines = update.entries.map(
          (entry) => `- ${STATUS_MARK[entry.status] ?? "[ ]"} ${entry.content}`,
        );
        return lines.length > 0
          ? [...this.flush(), { type: "text", text: clip(`Plan:\n${lines.join("\n")}`, MAX_MESSAGE_CHARS) }]
          : [];
      }
      default:
        return [];
    }
  }

  private finish(update: {
    toolCallId: string;
    status?: string | null;
    rawOutput?: unknown;
    content?: Array<{ type: string }> | null;
  }): ProgressEvent[] {
    if (update.status !== "completed" && update.status !== "failed") return [];
    if (this.finished.has(update.toolCallId)) return [];
    this.finished.add(update.toolCallId);
    return [
      ...this.flush(),
      {
        type: "tool_finished",
        toolUseId: progressToolId(update.toolCallId),
        name: this.names.get(update.toolCallId) ?? "tool",
        result: resultOf(update),
        isError: update.status === "failed",
      },
    ];
  }
}

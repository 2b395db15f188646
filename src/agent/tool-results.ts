// Recording tool results: the one place a result row and its `tool_result` event are written,
// and the barrier check that pairs every tool_use of an assistant message with one result.
import type { ToolResult } from "../interactions/define-interaction";
import type { ContentBlockParam, ToolResultBlockParam, ToolUseBlockParam } from "../model/model-client";
import type { FrameMark } from "../protocol/session/agents";
import type { ToolImage } from "../tools/define-tool";
import type { AgentDeps } from "./agent-deps";
import { topMark } from "./frame-mark";

/**
 * Records the one result of a tool call. `frame` is the agent whose call it is: the top of the
 * stack unless said otherwise (a parent's card answered while its child runs, a delegation's result).
 */
export function recordResult(
  deps: Pick<AgentDeps, "results" | "events" | "frames">,
  toolCallId: string,
  name: string,
  result: ToolResult & { truncated?: boolean; images?: ToolImage[] },
  frame: FrameMark = topMark(deps),
): void {
  const truncated = result.truncated ?? false;
  const images = result.images && result.images.length > 0 ? { images: result.images } : {};
  deps.results.put({
    toolCallId,
    name,
    content: result.content,
    isError: result.isError,
    truncated,
    ...images,
  });
  deps.events.append("tool_result", {
    toolCallId,
    name,
    content: result.content,
    isError: result.isError,
    truncated,
    ...frame,
  });
}

export function toolUses(content: ContentBlockParam[]): ToolUseBlockParam[] {
  return content.filter((block): block is ToolUseBlockParam => block.type === "tool_use");
}

/**
 * All tool results of one assistant message travel in one user message, stored as one row; a
 * Durable Object row holds at most 2 MB, so a batch is kept under this many bytes of UTF-8.
 */
export const MAX_RESULT_BATCH_BYTES = 1_000_000;

/** The tool_result blocks for `uses`, in the same order; null while any result is missing. */
export function resultBlocks(
  deps: Pick<AgentDeps, "results">,
  uses: ToolUseBlockParam[],
): ToolResultBlockParam[] | null {
  const results = uses.map((use) => deps.results.get(use.id));
  if (results.some((result) => !result)) return null;
  const contents = fitBatch(results.map((result) => result?.content ?? ""));
  let imageBudget = MAX_BATCH_IMAGE_BYTES;
  return uses.map((use, i) => {
    const text = contents[i] ?? "";
    const images = results[i]?.images ?? [];
    const kept: ToolImage[] = [];
    for (const image of images) {
      if (image.data.length > imageBudget) continue;
      imageBudget -= image.data.length;
      kept.push(image);
    }
    const left = images.length - kept.length;
    const note =
      left > 0 ? `\n[${left} image(s) left out: the results of this step carry too many images]` : "";
    return {
      type: "tool_result",
      tool_use_id: use.id,
      content:
        images.length === 0
          ? text
          : [
              { type: "text", text: text + note },
              ...kept.map((image) => ({
                type: "image" as const,
                source: { type: "base64" as const, media_type: image.mediaType, data: image.data },
              })),
            ],
      ...(results[i]?.isError ? { is_error: true } : {}),
    };
  });
}

/** Base64 characters of images one batch of results may carry, next to its text (the row limit). */
export const MAX_BATCH_IMAGE_BYTES = 600_000;

/**
 * Shortens the largest results until the batch fits MAX_RESULT_BATCH_BYTES: small results stay
 * whole and the rest share what is left equally, each saying it was shortened.
 */
export function fitBatch(contents: string[]): string[] {
  const encoder = new TextEncoder();
  const sizes = contents.map((content) => encoder.encode(content).byteLength);
  if (sizes.reduce((sum, size) => sum + size, 0) <= MAX_RESULT_BATCH_BYTES) return contents;
  // Water-filling: smallest first, each kept whole while it fits its equal share of what is left;
  // the first that does not fit fixes the share for it and every larger one.
  let budget = MAX_RESULT_BATCH_BYTES;
  let share = 0;
  const ascending = [...sizes].sort((a, b) => a - b);
  for (const [rank, size] of ascending.entries()) {
    const fair = Math.floor(budget / (ascending.length - rank));
    if (size > fair) {
      share = fair;
      break;
    }
    budget -= size;
  }
  return contents.map((content, i) => {
    const size = sizes[i] ?? 0;
    if (share === 0 || size <= share) return content;
    const note = `\n[output shortened to ${share} of ${size} bytes so this batch of ${contents.length} results fits]`;
    const bytes = encoder.encode(content).slice(0, Math.max(0, share - note.length));
    return new TextDecoder().decode(bytes).replace(/\uFFFD$/, "") + note;
  });
}

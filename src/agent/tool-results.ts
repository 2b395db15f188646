// Recording tool results: the one place a result row and its `tool_result` event are written,
// and the barrier check that pairs every tool_use of an assistant message with one result.
import type { ToolResult } from "../interactions/define-interaction";
import type { ContentBlockParam, ToolResultBlockParam, ToolUseBlockParam } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";

export function recordResult(
  deps: Pick<AgentDeps, "results" | "events">,
  toolCallId: string,
  name: string,
  result: ToolResult & { truncated?: boolean },
): void {
  const truncated = result.truncated ?? false;
  deps.results.put({ toolCallId, name, content: result.content, isError: result.isError, truncated });
  deps.events.append("tool_result", {
    toolCallId,
    name,
    content: result.content,
    isError: result.isError,
    truncated,
  });
}

export function toolUses(content: ContentBlockParam[]): ToolUseBlockParam[] {
  return content.filter((block): block is ToolUseBlockParam => block.type === "tool_use");
}

/** The tool_result blocks for `uses`, in the same order; null while any result is missing. */
export function resultBlocks(
  deps: Pick<AgentDeps, "results">,
  uses: ToolUseBlockParam[],
): ToolResultBlockParam[] | null {
  const blocks: ToolResultBlockParam[] = [];
  for (const use of uses) {
    const result = deps.results.get(use.id);
    if (!result) return null;
    blocks.push({
      type: "tool_result",
      tool_use_id: use.id,
      content: result.content,
      ...(result.isError ? { is_error: true } : {}),
    });
  }
  return blocks;
}

// The one MCP tool, `approve`, that Claude Code calls as its permission prompt
// (`--permission-prompt-tool mcp__parley__approve`): its name, its input and how a decision is
// written back. Served over stdio by `parley mcp` and over Streamable HTTP by the Worker.
import * as z from "zod";
import type { PermissionDecision } from "./claude-decision";

export const APPROVE_TOOL = "approve";

/** What Claude Code passes to a permission-prompt tool. */
export const PermissionPromptInput = z.looseObject({
  tool_name: z.string().min(1).describe("The tool Claude Code wants to run."),
  input: z.record(z.string(), z.unknown()).describe("The tool's input."),
  tool_use_id: z.string().optional().describe("The id of this tool call."),
  // Claude Code 2.1 gives these to PermissionRequest hooks and the SDK's canUseTool, not to this
  // tool; taken when a version sends them, so the card offers them the same way.
  permission_suggestions: z
    .array(z.unknown())
    .optional()
    .describe("Claude Code's own 'always allow' suggestions, offered to the person as a Parley grant."),
});
export type PermissionPromptInput = z.infer<typeof PermissionPromptInput>;

/** The tool's registration, as `McpServer.registerTool` takes it. */
export const approveTool = {
  title: "Ask a person through Parley",
  description:
    "Claude Code's permission prompt: asks the person on their Parley devices and returns their decision.",
  inputSchema: PermissionPromptInput,
};

/** The tool's result: one text block holding the decision as JSON, which Claude Code parses. */
export function decisionResult(decision: PermissionDecision): { content: [{ type: "text"; text: string }] } {
  return { content: [{ type: "text", text: JSON.stringify(decision) }] };
}

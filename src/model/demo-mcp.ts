// The demo model's MCP tour: a message that mentions "mcp" makes it call a tool of a configured MCP
// server — one that asks the person to fill in a form when there is one — and report the result.
import type { ModelRequest, ToolResultBlockParam } from "./model-client";
import type { ScriptedReply } from "./scripted-reply";

/** Tools that ask for a form (server-everything, Parley's own test server), in order of preference. */
const FORM_TOOLS = [/__trigger-elicitation-request$/, /__confirm-deploy$/];

/** The reply to a person's message that asks for the MCP tour, or null when it does not. */
export function mcpTour(request: ModelRequest, said: string): ScriptedReply | null {
  if (!/\bmcp\b/i.test(said)) return null;
  const names = (request.tools ?? []).map((tool) => tool.name).filter((name) => name.startsWith("mcp__"));
  if (names.length === 0) {
    return {
      content: [
        {
          type: "text",
          text:
            "This session has no MCP tools. Configure a server in MCP_SERVERS (see " +
            '"MCP servers" in docs/guide-agents.md) and start a new session to try them.',
        },
      ],
      stopReason: "end_turn",
    };
  }
  const form = FORM_TOOLS.map((pattern) => names.find((name) => pattern.test(name))).find(Boolean);
  const tool = form ?? names[0] ?? "";
  const input = tool.endsWith("__confirm-deploy") ? { env: "staging" } : {};
  const servers = [...new Set(names.map((name) => name.split("__")[1]))].join(", ");
  return {
    content: [
      {
        type: "text",
        text:
          `This session has ${names.length} MCP tools from ${servers}. I'll call ${tool}` +
          (form ? ", which asks you to fill in a form — answer it from any device." : "."),
      },
      { type: "tool_use", name: tool, input },
    ],
  };
}

/** The reply after an MCP tool's result. */
export function mcpTourResult(tool: string, result: ToolResultBlockParam, text: string): ScriptedReply {
  const outcome = result.is_error ? "came back with an error" : "returned";
  return {
    content: [{ type: "text", text: `${tool} ${outcome}: “${text.slice(0, 600)}”. That was the MCP tour.` }],
    stopReason: "end_turn",
  };
}

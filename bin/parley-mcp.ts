// `parley mcp`: a stdio MCP server with one tool, `approve`, for Claude Code's
// `--permission-prompt-tool mcp__parley__approve`. Each permission request becomes a card in the
// bridge's Parley session (the mapping is src/bridge/) and the person's answer comes back as
// Claude Code's decision.
import { randomUUID } from "node:crypto";
import process from "node:process";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { agentLine } from "../client/agent-line";
import { ApiError, type ExternalAgent, UnreachableError } from "../client/client";
import {
  APPROVE_TOOL,
  approveTool,
  decisionResult,
  type PermissionPromptInput,
} from "../src/bridge/approve-tool";
import { askClaude } from "../src/bridge/claude-ask";
import { BadLinkError, type BridgeSettings, connectAgent, fail, readBridgeArgs } from "./bridge-options";
import { claudeConfigDir, findPlan } from "./claude-plan";

const USAGE = `Usage: parley mcp --server URL --agent-key KEY [--title T]
       parley mcp --link AGENT_LINK
  Serves the MCP tool \`approve\` on stdio for:
  claude --mcp-config parley.json --permission-prompt-tool mcp__parley__approve`;

function explain(error: unknown): string {
  if (error instanceof UnreachableError) return `${error.message}. The tool was not run.`;
  if (error instanceof BadLinkError)
    return `Parley refused this bridge: ${error.message}. The tool was not run.`;
  if (error instanceof ApiError)
    return `Parley refused the request (${error.status} ${error.code}: ${error.message}). The tool was not run.`;
  return `The Parley bridge failed: ${error instanceof Error ? error.message : String(error)}. The tool was not run.`;
}

class McpBridge {
  private agent: Promise<ExternalAgent> | null = null;
  private readonly startedAt = Date.now();
  // Claude Code does not name its session to MCP servers; one key per run keeps one session per run.
  private readonly key = process.env.CLAUDE_CODE_SESSION_ID || `mcp-${randomUUID()}`;

  constructor(private readonly settings: BridgeSettings) {}

  private connect(): Promise<ExternalAgent> {
    this.agent ??= connectAgent(this.settings, this.key).then(
      (agent) => {
        // The session's address without a token: Claude Code keeps this line in its logs.
        const where = `${agent.baseUrl}/#/s/${agent.sessionId} (open it from your Parley inbox)`;
        process.stderr.write(`parley: Claude Code's requests appear at ${where}\n`);
        return agent;
      },
      (error: unknown) => {
        this.agent = null;
        if (error instanceof BadLinkError) process.stderr.write(`parley: ${error.message}\n`);
        throw error;
      },
    );
    return this.agent;
  }

  async approve(args: PermissionPromptInput, signal: AbortSignal): Promise<CallToolResult> {
    try {
      const agent = await this.connect();
      const plan =
        args.tool_name === "ExitPlanMode"
          ? await findPlan({
              transcriptPath: typeof args.transcript_path === "string" ? args.transcript_path : undefined,
              configDir: claudeConfigDir(),
              sinceMs: this.startedAt - 1_000,
            })
          : null;
      const decision = await askClaude(agentLine(agent, { unreachableMs: this.settings.unreachableMs }), {
        toolName: args.tool_name,
        input: args.input,
        toolUseId: args.tool_use_id,
        plan,
        suggestions: args.permission_suggestions,
        signal,
      });
      return decisionResult(decision);
    } catch (error) {
      return decisionResult({ behavior: "deny", message: explain(error) });
    }
  }
}

export async function runMcp(args: string[]): Promise<void> {
  const { settings } = readBridgeArgs(args, USAGE, 300);
  const bridge = new McpBridge(settings);
  if (settings.link) {
    // A link is checked at start, so a bad or expired one stops here rather than at the first request.
    await connectAgentOrExit(settings);
  }
  serveStdio(() => {
    const server = new McpServer({ name: "parley", version: "1.0.0" });
    server.registerTool(APPROVE_TOOL, approveTool, (input, ctx) => bridge.approve(input, ctx.mcpReq.signal));
    return server;
  });
}

async function connectAgentOrExit(settings: BridgeSettings): Promise<void> {
  try {
    await connectAgent(settings, undefined);
  } catch (error) {
    if (error instanceof BadLinkError) fail(error.message, 2);
    // Unreachable now is not fatal: each request retries and says so if Parley stays away.
  }
}

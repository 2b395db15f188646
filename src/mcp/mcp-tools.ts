// The session's MCP tools as tool definitions: built from the cached lists, one per server tool the
// deployment allows, named `mcp__<server>__<tool>`, validated against the server's own JSON schema.
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import * as z from "zod";
import { schemaTitles } from "../display/schema-titles";
import { defineTool, type ToolDefinition } from "../tools/define-tool";
import { type LiveForms, pushedFormHandler } from "./live-forms";
import type { McpServerConfig } from "./mcp-config";
import { type McpConnection, McpError } from "./mcp-connection";
import { callWithRounds, type McpCallStore } from "./mcp-rounds";
import type { ListedTool, McpStateStore } from "./mcp-state";
import { mcpToolName, mcpToolRisk } from "./mcp-tool-naming";

const validators = new CfWorkerJsonSchemaValidator({ shortcircuit: false });
const TOOL_GONE = /unknown tool|tool \S+ not found/i;

export interface McpToolSet {
  tools: ToolDefinition[];
  /** Tools left out (a name too long or taken), worded for the people using the session. */
  leftOut: string[];
}

/** What MCP tools run with: the session's server state, stored rounds, live forms and connections. */
export interface McpToolDeps {
  store: McpStateStore;
  calls: McpCallStore;
  live: LiveForms;
  /** Most forms a server may push inside one call; past it the call fails with an error result. */
  maxFormsPerCall: number;
  connect(server: McpServerConfig): McpConnection;
}

export function buildMcpTools(
  servers: readonly McpServerConfig[],
  deps: McpToolDeps,
  taken: ReadonlySet<string>,
): McpToolSet {
  const { store } = deps;
  const tools: ToolDefinition[] = [];
  const leftOut: string[] = [];
  const names = new Set(taken);
  for (const server of servers) {
    const record = store.get(server.name);
    if (!record.tools) continue;
    const allowed = server.tools ? new Set(server.tools) : null;
    for (const listed of record.tools) {
      if (allowed && !allowed.has(listed.name)) continue;
      const name = mcpToolName(server.name, listed.name);
      if (!name) {
        leftOut.push(`MCP tool "${listed.name}" of "${server.name}" was left out: its name is too long.`);
        continue;
      }
      if (names.has(name)) {
        leftOut.push(
          `MCP tool "${listed.name}" of "${server.name}" was left out: its name collides with ${name}.`,
        );
        continue;
      }
      names.add(name);
      tools.push(defineMcpTool(server, listed, name, deps));
    }
  }
  return { tools, leftOut };
}

function defineMcpTool(
  server: McpServerConfig,
  listed: ListedTool,
  name: string,
  deps: McpToolDeps,
): ToolDefinition {
  const { store } = deps;
  const { risk, idempotent } = mcpToolRisk(listed, server.overrides[listed.name], server.trustAnnotations);
  const { $schema: _dialect, ...schema } = listed.inputSchema;
  const check = compile(listed.inputSchema);
  const title = listed.title ?? listed.annotations?.title;
  const fields = schemaTitles(listed.inputSchema);
  return defineTool({
    name,
    description: listed.description ?? title ?? `The ${listed.name} tool of MCP server ${server.name}.`,
    input: z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
      const problem = check(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    inputSchema: { properties: {}, ...schema },
    risk,
    idempotent,
    mcp: {
      server: server.name,
      tool: listed.name,
      ...(title ? { title } : {}),
      ...(listed.annotations ? { annotations: listed.annotations } : {}),
      ...(server.trustAnnotations ? { trusted: true } : {}),
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
    },
    async run(input, ctx) {
      const connection = deps.connect(server);
      // 2025-11-25: a form pushed inside the open call is answered over that call.
      const onElicit = pushedFormHandler(
        deps.live,
        server,
        { toolCallId: ctx.toolCallId, toolName: name },
        ctx.signal,
        deps.maxFormsPerCall,
      );
      try {
        // 2026-07-28: an `input_required` answer is stored and its forms asked durably.
        const output = await callWithRounds({
          server: server.name,
          serverUrl: server.url,
          tool: listed.name,
          toolCallId: ctx.toolCallId,
          input,
          signal: ctx.signal,
          calls: deps.calls,
          elicit: (params) => ctx.elicit(params),
          call: (options) =>
            connection.callTool(listed.name, input, { ...options, signal: ctx.signal, onElicit }),
        });
        // Servers report a tool they no longer have as an error result or a JSON-RPC error.
        if (typeof output === "object" && output.isError && TOOL_GONE.test(output.content)) {
          store.markStale(server.name);
        }
        // A tool that may change the server may change its tool list too, and a 2026-07-28 server
        // announces that only on a `subscriptions/listen` stream, which nothing holds open between
        // calls: such a call marks the list stale, as `notifications/tools/list_changed` does.
        if (listed.annotations?.readOnlyHint !== true) store.markStale(server.name);
        return output;
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        if (error.toolGone) store.markStale(server.name);
        return { content: error.message, isError: true };
      }
    },
  });
}

/** A validator for the server's schema; a schema the validator cannot compile lets the server judge. */
function compile(schema: Record<string, unknown>): (value: unknown) => string | null {
  try {
    const validate = validators.getValidator(schema as never);
    return (value) => {
      const result = validate(value);
      return result.valid ? null : result.errorMessage;
    };
  } catch {
    return () => null;
  }
}

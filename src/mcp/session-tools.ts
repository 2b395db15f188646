// A session's tool registry: the built-in tools plus the MCP tools of the servers it selected,
// rebuilt from the cached lists whenever a listing changes them. Lists are fetched lazily, before
// a model call, for servers never listed, marked stale, or whose last listing failed a while ago.
import type { ToolDefinition } from "../tools/define-tool";
import { createToolRegistry, type ToolRegistry } from "../tools/registry";
import type { LiveForms } from "./live-forms";
import type { McpServerConfig } from "./mcp-config";
import { McpConnection } from "./mcp-connection";
import type { McpCallStore } from "./mcp-rounds";
import type { McpStateStore } from "./mcp-state";
import { buildMcpTools } from "./mcp-tools";

/** A server whose listing failed is tried again before a model call at most this often. */
export const MCP_RELIST_AFTER_FAILURE_MS = 30_000;

export interface SessionToolsOptions {
  builtin: readonly ToolDefinition[];
  /** The servers this session selected, in configuration order. */
  servers: readonly McpServerConfig[];
  store: McpStateStore;
  calls: McpCallStore;
  live: LiveForms;
  /** Most forms one call may push (MAX_FORMS_PER_TOOL_CALL, as for `ctx.elicit`). */
  maxFormsPerCall: number;
  fetch: typeof fetch;
  now(): number;
  /** Told when a server cannot be listed or a tool is left out (the session shows it on every device). */
  onProblem(message: string): void;
}

export function createSessionTools(options: SessionToolsOptions): ToolRegistry {
  const { builtin, servers, store } = options;
  const builtinNames = new Set(builtin.map((tool) => tool.name));
  const connect = (server: McpServerConfig) => new McpConnection(server, store, options.fetch);
  const deps = {
    store,
    calls: options.calls,
    live: options.live,
    maxFormsPerCall: options.maxFormsPerCall,
    connect,
  };
  // INVARIANT: a registry built from the stored lists; a new instance builds the same one.
  let current: ToolRegistry | null = null;
  let leftOut: string[] = [];
  const registry = () => {
    if (current) return current;
    const mcp = buildMcpTools(servers, deps, builtinNames);
    leftOut = mcp.leftOut;
    current = createToolRegistry([...builtin, ...mcp.tools]);
    return current;
  };

  return {
    get: (name) => registry().get(name),
    names: () => registry().names(),
    forModel: () => registry().forModel(),
    validate: (name, rawInput) => registry().validate(name, rawInput),
    execute: (name, rawInput, ctx) => registry().execute(name, rawInput, ctx),
    async prepare(signal) {
      let changed = false;
      for (const server of servers) {
        const record = store.get(server.name);
        const due =
          record.stale ||
          (record.tools === null &&
            (record.failedAt === null || options.now() - record.failedAt >= MCP_RELIST_AFTER_FAILURE_MS));
        if (!due || signal.aborted) continue;
        try {
          store.saveTools(server.name, await connect(server).listTools(signal), options.now());
          changed = true;
        } catch (error) {
          if (signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          store.saveError(server.name, message, options.now());
          if (record.tools === null)
            options.onProblem(`MCP server "${server.name}" is unavailable: ${message}`);
        }
      }
      if (!changed) return;
      current = null;
      registry();
      for (const problem of leftOut) options.onProblem(problem);
    },
  };
}

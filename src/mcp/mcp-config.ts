// The MCP servers a deployment offers (docs/architecture.md#mcp-servers), read once from `MCP_SERVERS` and validated with
// every bad entry named. Header values name secrets, so tokens never sit in wrangler.toml.
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";
import type { ToolRisk } from "../tools/define-tool";

const RISKS = ["read", "edit", "network", "execute"] as const satisfies readonly ToolRisk[];

/** Server names become part of tool names (`mcp__<server>__<tool>`), so they stay short and plain. */
export const McpServerName = lazySchema(() =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?$/,
      "name must be 1-32 letters, digits or inner hyphens",
    ),
);

const SecretName = lazySchema(() =>
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "must be the name of a secret"),
);
const HeaderName = lazySchema(() =>
  z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, "not a valid HTTP header name"),
);
const RESERVED_HEADERS = new Set([
  "mcp-session-id",
  "mcp-protocol-version",
  "content-type",
  "accept",
  "host",
]);

const ToolOverride = lazySchema(() =>
  z.strictObject({ risk: z.enum(RISKS).optional(), idempotent: z.boolean().optional() }),
);
export type McpToolOverride = z.infer<typeof ToolOverride>;

const ServerEntry = lazySchema(() =>
  z.strictObject({
    name: McpServerName,
    url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }),
    /** Header name → the name of the secret (wrangler secret or variable) that holds its value. */
    headers: z.record(HeaderName, SecretName).optional(),
    /** Only these tools (by the server's own names) are offered; all of them when absent. */
    tools: z.array(z.string().min(1).max(128)).min(1).optional(),
    /** Per tool (by the server's own name): risk and idempotency that replace the annotations' verdict. */
    risk: z.record(z.string().min(1).max(128), ToolOverride).optional(),
    /**
     * Let this server's own `readOnlyHint` spare its tools an approval. Off by default: a hint is the
     * server's claim, and a server that lies would run its tools unasked.
     */
    trustAnnotations: z.boolean().optional(),
    /** How long one request to this server may take before it becomes an error result. */
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    /** Used by sessions that do not pick their servers (`mcpServers` absent); true when absent. */
    byDefault: z.boolean().optional(),
  }),
);

export interface McpServerConfig {
  name: string;
  url: string;
  /** Resolved header values: secrets, never to be logged or stored. */
  headers: Record<string, string>;
  tools: string[] | null;
  overrides: Record<string, McpToolOverride>;
  /** Whether the server's `readOnlyHint` may make a tool `read` (run unasked); `risk` overrides always may. */
  trustAnnotations: boolean;
  timeoutMs: number;
  byDefault: boolean;
}

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/**
 * Reads `MCP_SERVERS` (a JSON array, as a string or as a structured variable) from the Worker
 * environment. Throws one error listing every bad entry by index and name; none configured → [].
 */
export function readMcpServers(env: Record<string, unknown>): McpServerConfig[] {
  const raw = env.MCP_SERVERS;
  if (raw === undefined || raw === "") return [];
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new Error(`Invalid MCP_SERVERS: not JSON (${error instanceof Error ? error.message : error})`);
    }
  }
  if (!Array.isArray(value)) throw new Error("Invalid MCP_SERVERS: expected a JSON array of servers");

  const problems: string[] = [];
  const servers: McpServerConfig[] = [];
  const seen = new Map<string, number>();
  value.forEach((entry, index) => {
    const label = `MCP_SERVERS[${index}]${nameOf(entry)}`;
    const parsed = ServerEntry.safeParse(entry);
    if (!parsed.success) {
      problems.push(`${label}: ${z.prettifyError(parsed.error).replaceAll("\n", " ")}`);
      return;
    }
    const server = parsed.data;
    const earlier = seen.get(server.name.toLowerCase());
    if (earlier !== undefined) {
      problems.push(`${label}: duplicate name, already used by MCP_SERVERS[${earlier}]`);
      return;
    }
    seen.set(server.name.toLowerCase(), index);
    const headers: Record<string, string> = {};
    for (const [header, secret] of Object.entries(server.headers ?? {})) {
      if (RESERVED_HEADERS.has(header.toLowerCase())) {
        problems.push(`${label}: header "${header}" is managed by the MCP transport and cannot be set`);
        continue;
      }
      const secretValue = env[secret];
      if (typeof secretValue !== "string" || secretValue === "") {
        problems.push(`${label}: header "${header}" names secret ${secret}, which is not set`);
        continue;
      }
      headers[header] = secretValue;
    }
    servers.push({
      name: server.name,
      url: server.url,
      headers,
      tools: server.tools ?? null,
      overrides: server.risk ?? {},
      trustAnnotations: server.trustAnnotations ?? false,
      timeoutMs: server.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS,
      byDefault: server.byDefault ?? true,
    });
  });
  if (problems.length > 0) throw new Error(`Invalid MCP_SERVERS:\n  ${problems.join("\n  ")}`);
  return servers;
}

/**
 * The servers a new session uses, in configuration order: the ones it names, or when it names none,
 * those configured to be used by default. An unknown name is refused with the available ones listed.
 */
export function selectMcpServers(
  servers: readonly McpServerConfig[],
  names: readonly string[] | undefined,
): { ok: true; names: string[] } | { ok: false; message: string } {
  if (!names)
    return { ok: true, names: servers.filter((server) => server.byDefault).map((server) => server.name) };
  const known = new Set(servers.map((server) => server.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const available = [...known].join(", ") || "none are configured";
    const listed = unknown.map((name) => `"${name}"`).join(", ");
    return { ok: false, message: `unknown MCP server ${listed} (available: ${available})` };
  }
  const wanted = new Set(names);
  return {
    ok: true,
    names: servers.filter((server) => wanted.has(server.name)).map((server) => server.name),
  };
}

function nameOf(entry: unknown): string {
  if (typeof entry !== "object" || entry === null || !("name" in entry)) return "";
  return typeof entry.name === "string" ? ` ("${entry.name.slice(0, 40)}")` : "";
}

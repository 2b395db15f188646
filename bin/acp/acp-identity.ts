// Which tool an ACP permission request is for, read from the call itself: Claude Code's tools (what
// claude-agent-acp sends) by the shape of `rawInput` and the ACP kind, else `acp:<kind>`, which no
// grant decides and no device offers a grant for. The title is the agent's prose and never decides.

/** What one field of a tool's input may hold. */
type FieldType = "string" | "number" | "boolean" | "strings";

interface ToolShape {
  /** The ACP kind claude-agent-acp gives the tool. */
  kind: string;
  required: Readonly<Record<string, FieldType>>;
  optional: Readonly<Record<string, FieldType>>;
}

/**
 * Claude Code's tool inputs (the Agent SDK's sdk-tools.d.ts) with the ACP kind claude-agent-acp
 * maps each to. A field outside these is not the tool as Parley knows it, so it names nothing.
 */
const CLAUDE_CODE_TOOLS: Readonly<Record<string, ToolShape>> = {
  Bash: {
    kind: "execute",
    required: { command: "string" },
    optional: {
      description: "string",
      timeout: "number",
      run_in_background: "boolean",
      dangerouslyDisableSandbox: "boolean",
    },
  },
  Read: {
    kind: "read",
    required: { file_path: "string" },
    optional: { offset: "number", limit: "number", pages: "string", allow_large: "boolean" },
  },
  Edit: {
    kind: "edit",
    required: { file_path: "string", old_string: "string", new_string: "string" },
    optional: { replace_all: "boolean" },
  },
  Write: { kind: "edit", required: { file_path: "string", content: "string" }, optional: {} },
  Glob: { kind: "search", required: { pattern: "string" }, optional: { path: "string" } },
  Grep: {
    kind: "search",
    required: { pattern: "string" },
    optional: {
      path: "string",
      glob: "string",
      output_mode: "string",
      "-B": "number",
      "-A": "number",
      "-C": "number",
      context: "number",
      "-n": "boolean",
      "-i": "boolean",
      "-o": "boolean",
      type: "string",
      head_limit: "number",
      offset: "number",
      multiline: "boolean",
    },
  },
  WebFetch: { kind: "fetch", required: { url: "string", prompt: "string" }, optional: { offset: "number" } },
  WebSearch: {
    kind: "fetch",
    required: { query: "string" },
    optional: { allowed_domains: "strings", blocked_domains: "strings" },
  },
};

/** The parts of an ACP tool call the identity is read from (`title` is deliberately absent). */
export interface AcpCallParts {
  kind?: string | null | undefined;
  rawInput?: unknown;
  /** ACP's own tool name, when the agent sends one. */
  name?: string | null | undefined;
  _meta?: Record<string, unknown> | null | undefined;
}

/** An ACP kind as part of a name: ACP's own kinds are lower-case words; anything else is `other`. */
function kindOf(kind: string | null | undefined): string {
  return kind && /^[a-z_]{1,32}$/.test(kind) ? kind : "other";
}

function fits(value: unknown, type: FieldType): boolean {
  if (type === "strings") return Array.isArray(value) && value.every((item) => typeof item === "string");
  return typeof value === type;
}

/** Whether `input` is exactly this tool's input: every required field, no field it does not take. */
function hasShape(input: unknown, shape: ToolShape): boolean {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return false;
  const fields = input as Record<string, unknown>;
  for (const [name, type] of Object.entries(shape.required))
    if (!(name in fields) || !fits(fields[name], type)) return false;
  return Object.entries(fields).every(([name, value]) => {
    const type = shape.required[name] ?? shape.optional[name];
    return type !== undefined && fits(value, type);
  });
}

/** The tool name the agent states outright: ACP's `name`, or claude-agent-acp's `_meta.claudeCode.toolName`. */
function statedName(call: AcpCallParts): string | null {
  if (typeof call.name === "string" && call.name !== "") return call.name;
  const claudeCode = call._meta?.claudeCode;
  if (typeof claudeCode !== "object" || claudeCode === null) return null;
  const toolName = (claudeCode as Record<string, unknown>).toolName;
  return typeof toolName === "string" && toolName !== "" ? toolName : null;
}

/**
 * The call's identity: a Claude Code tool where the kind and `rawInput` have exactly its shape (the
 * name the agent states, when it states one, must be that tool), else `acp:<kind>`.
 */
export function acpToolIdentity(call: AcpCallParts): string {
  const kind = kindOf(call.kind);
  const unknown = `acp:${kind}`;
  const stated = statedName(call);
  const candidates =
    stated === null
      ? Object.entries(CLAUDE_CODE_TOOLS)
      : Object.entries(CLAUDE_CODE_TOOLS).filter(([tool]) => tool === stated);
  const matching = candidates.filter(([, shape]) => shape.kind === kind && hasShape(call.rawInput, shape));
  // Two tools with one shape (Glob and Grep with only a pattern) cannot be told apart.
  const [only, ...others] = matching;
  return only && others.length === 0 ? only[0] : unknown;
}

/** Whether an identity is one `acpToolIdentity` could not name (the ACP kind stands in for it). */
export function isUnknownAcpTool(toolName: string): boolean {
  return toolName.startsWith("acp:");
}

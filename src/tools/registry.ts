// The tool registry: the tool list the model sees, and the one place a tool call is validated,
// run and turned into a tool_result. Every failure becomes an is_error result, never a throw.
import type { ToolSpec } from "../model/model-client";
import { lazyToolSpec } from "../model/tool-spec";
import { MAX_TOOL_OUTPUT_CHARS } from "../protocol/limits";
import { describeZodError } from "../protocol/wire/errors";
import {
  type ToolContext,
  type ToolDefinition,
  type ToolImage,
  type ToolOutput,
  ToolPause,
} from "./define-tool";

/** A finished tool call, ready to become a tool_result block. */
export interface ToolExecution {
  content: string;
  isError: boolean;
  /** The output exceeded `MAX_TOOL_OUTPUT_CHARS` and was cut (the content says so too). */
  truncated: boolean;
  /** The run stopped to wait for a person (`ctx.elicit`); it has no result yet and runs again later. */
  paused?: true;
  /** Images the model sees after the text (small ones only; see the tool that made them). */
  images?: ToolImage[];
}

const PAUSED: ToolExecution = {
  content: "(waiting for the user)",
  isError: false,
  truncated: false,
  paused: true,
};

export interface ToolRegistry {
  get(name: string): ToolDefinition | undefined;
  /** Registered tool names, in registration order. */
  names(): string[];
  /** The Messages API `tools` list. */
  forModel(): ToolSpec[];
  /**
   * The is_error result `execute` would give for an unknown tool or invalid input, or `null` when
   * the call is runnable; lets a caller skip asking a person to approve a call that cannot run.
   */
  validate(name: string, rawInput: unknown): ToolExecution | null;
  /**
   * Validates `rawInput` and runs the tool. Never throws: unknown tools, invalid input, failures,
   * aborts and oversized output all come back as a result the model can read and recover from.
   */
  execute(name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolExecution>;
  /**
   * Makes the tool list ready before a model call (for tools listed by MCP servers, which may need
   * fetching). Never throws: a source that cannot list its tools leaves them out and says why.
   */
  prepare?(signal: AbortSignal): Promise<void>;
}

/** The model can act on a few issues; a wall of them only costs tokens. */
const MAX_LISTED_ISSUES = 8;

/**
 * Builds a registry over `tools`. Throws on duplicate names or a non-object input schema:
 * both are programming errors that must fail at startup, not in the middle of a turn.
 */
export function createToolRegistry(tools: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Duplicate tool name "${tool.name}"`);
    byName.set(tool.name, tool);
  }
  // Converted on first use; a schema that cannot be an object input still fails here.
  const specs = tools.map((tool): (() => ToolSpec) => {
    if (!tool.inputSchema) return lazyToolSpec(tool.name, tool.description, tool.input);
    const spec = {
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.inputSchema, type: "object" as const },
    };
    return () => spec;
  });

  return {
    get: (name) => byName.get(name),
    names: () => [...byName.keys()],
    // Top-level copies, as the interaction registry's: callers mark the last tool, never its schema.
    forModel: () => specs.map((spec) => ({ ...spec() })),
    validate(name, rawInput) {
      const checked = check(name, rawInput);
      return "rejected" in checked ? checked.rejected : null;
    },
    async execute(name, rawInput, ctx) {
      const checked = check(name, rawInput);
      if ("rejected" in checked) return checked.rejected;
      const { tool, parsed } = checked;
      if (ctx.signal.aborted) return failure(`Tool "${name}" was cancelled before it ran.`);
      try {
        const output = await untilAborted(() => tool.run(parsed, ctx), ctx.signal);
        return finish(output);
      } catch (error) {
        if (error instanceof ToolPause) return PAUSED;
        if (ctx.signal.aborted) return failure(`Tool "${name}" was cancelled before it finished.`);
        return failure(`Tool "${name}" failed: ${messageOf(error)}`);
      }
    },
  };

  function check(
    name: string,
    rawInput: unknown,
  ): { tool: ToolDefinition; parsed: unknown } | { rejected: ToolExecution } {
    const tool = byName.get(name);
    if (!tool) {
      const available = [...byName.keys()].join(", ") || "(none)";
      return { rejected: failure(`Unknown tool "${name}". Available tools: ${available}.`) };
    }
    const parsed = tool.input.safeParse(rawInput);
    if (!parsed.success) {
      return {
        rejected: failure(
          `Invalid input for tool "${name}": ${describeZodError(parsed.error, { maxIssues: MAX_LISTED_ISSUES })}.`,
        ),
      };
    }
    return { tool, parsed: parsed.data };
  }
}

function finish(output: ToolOutput): ToolExecution {
  const isError = typeof output === "object" && output !== null && output.isError === true;
  const raw = typeof output === "string" ? output : output?.content;
  const content = typeof raw === "string" ? raw : String(raw ?? "");
  // An empty tool_result reads as a glitch to the model; say explicitly that nothing came back.
  const execution = truncate(content === "" ? "(no output)" : content, isError);
  const images = typeof output === "object" && output !== null ? output.images : undefined;
  return images && images.length > 0 ? { ...execution, images } : execution;
}

function failure(message: string): ToolExecution {
  return truncate(message, true);
}

function truncate(content: string, isError: boolean): ToolExecution {
  if (content.length <= MAX_TOOL_OUTPUT_CHARS) return { content, isError, truncated: false };
  const total = content.length;
  // Reserve room for the note so the whole result stays within the limit.
  const reserve = `\n\n[output truncated: ${MAX_TOOL_OUTPUT_CHARS} of ${total} characters shown]`.length;
  let shown = MAX_TOOL_OUTPUT_CHARS - reserve;
  // Do not split a surrogate pair, which would leave a lone half in the JSON.
  const last = content.charCodeAt(shown - 1);
  if (last >= 0xd800 && last <= 0xdbff) shown -= 1;
  const note = `\n\n[output truncated: ${shown} of ${total} characters shown]`;
  return { content: content.slice(0, shown) + note, isError, truncated: true };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * Settles with `work`, or rejects as soon as `signal` aborts, so a tool that ignores its signal
 * cannot hold a cancelled turn open.
 */
function untilAborted<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(work)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

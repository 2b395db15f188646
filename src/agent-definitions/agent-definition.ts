// An agent definition: a markdown file whose YAML frontmatter names the agent, says when to use
// it and which tools it may use, and whose body is its system prompt (the `.claude/agents` shape).
import { load as parseYaml } from "js-yaml";
import * as z from "zod";

/** Most model calls an agent makes over its life when its file sets no `maxIterations`. */
export const DEFAULT_AGENT_MAX_ITERATIONS = 25;

const agentName = () =>
  z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,63}$/, "must be lowercase letters, digits and hyphens, starting with a letter")
    // Events mark the main agent's output with the agent name "main".
    .refine((name) => name !== "main", '"main" is the main agent\'s name');

// Claude Code writes `tools: Read, Grep`; a YAML list works too.
const toolList = () =>
  z
    .union([z.array(z.string().trim().min(1)), z.string()])
    .transform((value) =>
      (typeof value === "string" ? value.split(",") : value).map((name) => name.trim()).filter(Boolean),
    );

const agentFrontmatter = () =>
  z.strictObject({
    name: agentName(),
    description: z.string().trim().min(1).max(1_024),
    /** Tools the agent may use (built-ins, interaction kinds, MCP tools, `Agent` to delegate); all when absent. */
    tools: toolList().optional(),
    model: z.string().trim().min(1).optional(),
    maxIterations: z.number().int().min(1).max(200).optional(),
  });

// Built on first use: only parsing a definition needs it, not the Worker's start-up.
let frontmatter: ReturnType<typeof agentFrontmatter> | null = null;

export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names it may use, or null for every tool the session has. */
  tools: string[] | null;
  model: string | null;
  maxIterations: number;
  systemPrompt: string;
  /** Where the definition came from, for error messages. */
  file: string;
}

/** A definition that cannot be used, naming the file and the field. */
export class AgentDefinitionError extends Error {
  override readonly name = "AgentDefinitionError";
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Parses one agent file; throws AgentDefinitionError naming `file` and the offending field. */
export function parseAgentDefinition(file: string, source: string): AgentDefinition {
  const match = FRONTMATTER.exec(source);
  if (!match) throw new AgentDefinitionError(`${file}: must start with YAML frontmatter between --- lines`);
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? "");
  } catch (error) {
    throw new AgentDefinitionError(`${file}: invalid YAML frontmatter: ${(error as Error).message}`);
  }
  frontmatter ??= agentFrontmatter();
  const parsed = frontmatter.safeParse(data ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join(".") : (unknownKey(issue) ?? "frontmatter");
      return `field "${field}": ${issue.message}`;
    });
    throw new AgentDefinitionError(`${file}: ${issues.join("; ")}`);
  }
  const systemPrompt = (match[2] ?? "").trim();
  if (!systemPrompt) throw new AgentDefinitionError(`${file}: the body (the agent's system prompt) is empty`);
  const front = parsed.data;
  return {
    name: front.name,
    description: front.description,
    tools: front.tools ?? null,
    model: front.model ?? null,
    maxIterations: front.maxIterations ?? DEFAULT_AGENT_MAX_ITERATIONS,
    systemPrompt,
    file,
  };
}

function unknownKey(issue: z.core.$ZodIssue): string | null {
  return issue.code === "unrecognized_keys" ? issue.keys.join(", ") : null;
}

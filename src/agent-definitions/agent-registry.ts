// The agents a session can delegate to, checked once at start-up: unique names, and tools that
// exist (MCP tools, named `mcp__<server>__<tool>`, are resolved when their server connects).
import { type AgentDefinition, AgentDefinitionError, parseAgentDefinition } from "./agent-definition";

export interface AgentRegistry {
  get(name: string): AgentDefinition | undefined;
  all(): AgentDefinition[];
}

/** Tool names every agent may list beyond the session's own tools. */
export const DELEGATE_TOOL_NAME = "Agent";
export const COMPLETE_TOOL_NAME = "complete";

/**
 * Parses and checks `files`. Throws AgentDefinitionError naming the file and field for a bad
 * definition, a duplicate name or an unknown tool (`knownTools`: the session's tool names).
 */
export function createAgentRegistry(
  files: readonly { file: string; source: string }[],
  knownTools: readonly string[],
): AgentRegistry {
  const byName = new Map<string, AgentDefinition>();
  const known = new Set([...knownTools, DELEGATE_TOOL_NAME]);
  for (const { file, source } of files) {
    const definition = parseAgentDefinition(file, source);
    const earlier = byName.get(definition.name);
    if (earlier) {
      throw new AgentDefinitionError(
        `${file}: field "name": "${definition.name}" is already defined in ${earlier.file}`,
      );
    }
    for (const tool of definition.tools ?? []) {
      if (tool === COMPLETE_TOOL_NAME) continue; // always offered to delegated agents anyway
      if (!known.has(tool) && !tool.startsWith("mcp__")) {
        throw new AgentDefinitionError(
          `${file}: field "tools": unknown tool "${tool}" (known: ${[...known].join(", ")})`,
        );
      }
    }
    byName.set(definition.name, definition);
  }
  return {
    get: (name) => byName.get(name),
    all: () => [...byName.values()],
  };
}

/**
 * A registry built by `build` the first time it is read: parsing the definitions (YAML, then the
 * frontmatter schema) is start-up CPU that only sessions which build a model request need.
 */
export function lazyAgentRegistry(build: () => AgentRegistry): AgentRegistry {
  let built: AgentRegistry | null = null;
  const registry = () => {
    built ??= build();
    return built;
  };
  return {
    get: (name) => registry().get(name),
    all: () => registry().all(),
  };
}

// An AgentLoop over the in-memory stores with the scripted model: the loop's logic tested as plain
// functions, without the Workers runtime. The clock is fixed and moves only when a test says so.
import type { AgentDeps, AgentSettings } from "../../../src/agent/agent-deps";
import { AgentLoop } from "../../../src/agent/agent-loop";
import { createMemoryStores, type MemoryStores } from "../../../src/agent/memory/memory-stores";
import { createAgentRegistry } from "../../../src/agent-definitions/agent-registry";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";
import { ScriptedModelClient } from "../../../src/model/scripted-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import type { SessionEvent } from "../../../src/protocol/wire/events";
import { BUILTIN_TOOLS } from "../../../src/tools/builtin";
import { createToolRegistry } from "../../../src/tools/registry";
import { MemoryToolStateStore } from "../../../src/tools/tool-state";
import { MemoryNotes } from "../../helpers/memory-notes";

export interface LoopHarness {
  loop: AgentLoop;
  deps: AgentDeps;
  stores: MemoryStores;
  model: ScriptedModelClient;
  notes: MemoryNotes;
  clock: { now: number };
  /** Queues a user message and runs the loop until it pauses or the turn ends. */
  say(text: string): Promise<void>;
  /** Events of one type, in order. */
  eventsOf<T extends SessionEvent["type"]>(type: T): Extract<SessionEvent, { type: T }>[];
}

/** An agent definition file, written the way `agents/*.md` are. */
export function agentFile(
  name: string,
  frontmatter: string,
  prompt = `You are ${name}.`,
): { file: string; source: string } {
  return {
    file: `agents/${name}.md`,
    source: `---\nname: ${name}\ndescription: The ${name} agent.\n${frontmatter}\n---\n${prompt}\n`,
  };
}

/** Agents for stack tests: a researcher that asks and may delegate, a writer, and a tool-less echo. */
export const TEST_AGENTS = [
  agentFile("researcher", "tools: [AskUserQuestion, current_time, Agent]\nmaxIterations: 4"),
  agentFile("writer", "tools: notes_write, Agent\nmodel: claude-writer"),
  agentFile("echo", "tools: []\nmaxIterations: 2"),
];

export function loopHarness(
  script: ScriptedReply[],
  options: {
    settings?: Partial<AgentSettings>;
    agents?: { file: string; source: string }[];
    /** Replaces the scripted model that plays `script`. */
    model?: ScriptedModelClient;
    extend?: (deps: AgentDeps) => AgentDeps;
  } = {},
): LoopHarness {
  const clock = { now: 1_000_000 };
  const now = () => clock.now;
  const stores = createMemoryStores({ now });
  const model = options.model ?? new ScriptedModelClient(script, { record: true });
  const notes = new MemoryNotes(now);
  const toolState = new MemoryToolStateStore();
  let ids = 0;
  const tools = createToolRegistry(BUILTIN_TOOLS);
  const kinds = createInteractionRegistry(BUILTIN_INTERACTIONS);
  const base: AgentDeps = {
    ...stores,
    clock: { now },
    model,
    tools,
    kinds,
    agents: createAgentRegistry(options.agents ?? TEST_AGENTS, [
      ...tools.names(),
      ...kinds.toolSpecs().map((spec) => spec.name),
    ]),
    toolContext: (signal) => ({
      signal,
      notes,
      toolState,
      fetch: () => Promise.reject(new Error("offline")),
      now,
    }),
    settings: {
      model: "claude-test",
      maxTokens: 1_024,
      interactionTimeoutMs: 60_000,
      maxTurnIterations: 25,
      watchdogMs: 120_000,
      maxFormsPerToolCall: 5,
      maxAgentDepth: 4,
      ...options.settings,
    },
    newId: (prefix) => `${prefix}_${++ids}`,
    // Memory stores cannot roll back; the SQLite transaction is tested in the Workers runtime.
    atomically: (work) => work(),
  };
  const deps = options.extend ? options.extend(base) : base;
  const loop = new AgentLoop(deps);
  return {
    loop,
    deps,
    stores,
    model,
    notes,
    clock,
    async say(text) {
      stores.queue.push({ id: deps.newId("msg"), text });
      await loop.advance();
    },
    eventsOf(type) {
      return stores.events.events.filter(
        (event): event is Extract<SessionEvent, { type: typeof type }> => event.type === type,
      );
    },
  };
}

export function text(value: string): ScriptedReply {
  return { content: [{ type: "text", text: value }] };
}

export function tools(
  ...calls: { id?: string; name: string; input: Record<string, unknown> }[]
): ScriptedReply {
  return { content: calls.map((call) => ({ type: "tool_use" as const, ...call })) };
}

// An AgentLoop over the in-memory stores with the scripted model: the loop's logic tested as plain
// functions, without the Workers runtime. The clock is fixed and moves only when a test says so.
import type { AgentDeps, AgentSettings } from "../../../src/agent/agent-deps";
import { AgentLoop } from "../../../src/agent/agent-loop";
import { createMemoryStores, type MemoryStores } from "../../../src/agent/memory/memory-stores";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";
import { ScriptedModelClient } from "../../../src/model/scripted-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import type { SessionEvent } from "../../../src/protocol/events";
import { BUILTIN_TOOLS } from "../../../src/tools/builtin";
import { createToolRegistry } from "../../../src/tools/registry";
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

export function loopHarness(
  script: ScriptedReply[],
  options: { settings?: Partial<AgentSettings>; extend?: (deps: AgentDeps) => AgentDeps } = {},
): LoopHarness {
  const clock = { now: 1_000_000 };
  const now = () => clock.now;
  const stores = createMemoryStores({ now });
  const model = new ScriptedModelClient(script, { record: true });
  const notes = new MemoryNotes(now);
  let ids = 0;
  const base: AgentDeps = {
    ...stores,
    clock: { now },
    model,
    tools: createToolRegistry(BUILTIN_TOOLS),
    kinds: createInteractionRegistry(BUILTIN_INTERACTIONS),
    toolContext: (signal) => ({ signal, notes, fetch: () => Promise.reject(new Error("offline")), now }),
    settings: {
      model: "claude-test",
      maxTokens: 1_024,
      interactionTimeoutMs: 60_000,
      maxTurnIterations: 25,
      watchdogMs: 120_000,
      maxFormsPerToolCall: 5,
      ...options.settings,
    },
    newId: (prefix) => `${prefix}_${++ids}`,
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
      stores.inbox.push({ id: deps.newId("msg"), text });
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

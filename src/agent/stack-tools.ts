// The two tools that move the agent stack — `Agent` (delegate; the Claude Agent SDK's input shape)
// and `complete` (hand a result back) — and what each frame is offered: tools, model, system prompt.
import * as z from "zod";
import type { AgentDefinition } from "../agent-definitions/agent-definition";
import { COMPLETE_TOOL_NAME, DELEGATE_TOOL_NAME } from "../agent-definitions/agent-registry";
import type { ToolSpec } from "../model/model-client";
import { lazyToolSpec } from "../model/tool-spec";
import { lazySchema } from "../protocol/lazy-schema";
import { MAX_MESSAGE_CHARS, MAX_TOOL_OUTPUT_CHARS } from "../protocol/limits";
import type { AgentDeps } from "./agent-deps";
import type { FrameRecord } from "./ports";

export { COMPLETE_TOOL_NAME, DELEGATE_TOOL_NAME };

/** The `Agent` tool's input, as in the Claude Agent SDK (other SDK fields are ignored). */
export const DelegateInput = lazySchema(() =>
  z.object({
    description: z.string().trim().min(1).max(200).describe("A short (3-5 word) description of the task"),
    prompt: z.string().trim().min(1).max(MAX_MESSAGE_CHARS).describe("The task for the agent to perform"),
    subagent_type: z.string().min(1).max(64).describe("The type of specialized agent to use for this task"),
  }),
);
export type DelegateInput = z.infer<typeof DelegateInput>;

export const CompleteInput = lazySchema(() =>
  z.object({
    result: z
      .string()
      .trim()
      .min(1, "result is empty")
      .max(MAX_TOOL_OUTPUT_CHARS)
      .describe("What you found or did: the agent that delegated to you sees only this"),
  }),
);

export function isStackTool(name: string): boolean {
  return name === DELEGATE_TOOL_NAME || name === COMPLETE_TOOL_NAME;
}

const completeSpec = lazyToolSpec(
  COMPLETE_TOOL_NAME,
  "Finish your task and hand your result back to the agent that delegated to you. Until you call " +
    "this, you are talking directly with the person; call it once, when you are done.",
  CompleteInput,
);

const delegateBaseSpec = lazyToolSpec(
  DELEGATE_TOOL_NAME,
  "Hand a task to a specialized agent. The agent takes over the conversation and talks with the " +
    "person directly until it calls complete; its result comes back as this tool's result.",
  DelegateInput,
);

/** The `Agent` tool, its description listing the agents this frame may delegate to. */
function delegateSpec(agents: readonly AgentDefinition[]): ToolSpec {
  const list = agents.map((agent) => `- ${agent.name}: ${agent.description}`).join("\n");
  return {
    ...structuredClone(delegateBaseSpec()),
    description: `${delegateBaseSpec().description}\n\nAvailable agents (subagent_type):\n${list}`,
  };
}

const DELEGATED_NOTE =
  "\n\nYou were given this task by another agent, and you are now talking directly with the person. " +
  "When you have finished, call the `complete` tool with your result; until then, reply to the " +
  "person in plain text when you need their input.";

/**
 * Whether the frame's agent was given the tool `name`. The main agent has every tool, and
 * `complete` is judged by `settleStackCalls` (refused to the main agent there, with its reason).
 */
export function mayUse(deps: Pick<AgentDeps, "agents">, frame: FrameRecord | null, name: string): boolean {
  if (!frame || name === COMPLETE_TOOL_NAME) return true;
  const tools = deps.agents.get(frame.agent)?.tools;
  return tools === null || tools === undefined || tools.includes(name);
}

/** Model, system prompt and tool list for the next model call of the top frame. */
export function frameRequest(
  deps: Pick<AgentDeps, "agents" | "frames" | "tools" | "kinds" | "settings" | "turn">,
): { model: string; systemPrompt: string; tools: ToolSpec[]; agent: string | null } {
  const frame = deps.frames.top();
  const sessionTools = [...deps.tools.forModel(), ...deps.kinds.toolSpecs()];
  const agents = deps.agents.all();
  if (!frame) {
    return {
      model: deps.settings.model,
      agent: null,
      systemPrompt: deps.turn.systemPrompt(),
      tools: agents.length > 0 ? [...sessionTools, delegateSpec(agents)] : sessionTools,
    };
  }
  const definition = deps.agents.get(frame.agent);
  const allowed = definition?.tools ?? null;
  const tools = sessionTools.filter((spec) => allowed === null || allowed.includes(spec.name));
  const canDelegate =
    (allowed === null || allowed.includes(DELEGATE_TOOL_NAME)) && frame.depth < deps.settings.maxAgentDepth;
  const others = agents.filter((agent) => agent.name !== frame.agent);
  if (canDelegate && others.length > 0) tools.push(delegateSpec(others));
  tools.push(completeSpec());
  return {
    model: definition?.model ?? deps.settings.model,
    agent: frame.agent,
    systemPrompt: (definition?.systemPrompt ?? "") + DELEGATED_NOTE,
    tools,
  };
}

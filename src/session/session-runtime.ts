// What a session runs on: the agent loop over the session's stores, its model client, and its
// tools — the built-ins plus the MCP servers it selected. Rebuilt from storage by any instance.
import type { AgentDeps } from "../agent/agent-deps";
import { AgentLoop } from "../agent/agent-loop";
import { createAgentRegistry, lazyAgentRegistry } from "../agent-definitions/agent-registry";
import { BUNDLED_AGENT_FILES } from "../agent-definitions/bundled-agents";
import type { Config } from "../config";
import { createSessionTools } from "../mcp/session-tools";
import type { ModelClient } from "../model/model-client";
import { WATCHDOG_MS } from "../protocol/limits";
import { BUILTIN_TOOLS } from "../tools/builtin";
import { createToolRegistry, type ToolRegistry } from "../tools/registry";
import { budgetedModel, SessionTokenBudget } from "./budgets/token-budget";
import { inboxStub } from "./inbox-report/inbox-rpc";
import { createLiveForms } from "./live-forms";
import { SessionGrants } from "./session-grants";
import { sessionKinds } from "./session-kinds";
import type { SessionState } from "./session-state";

const tools = createToolRegistry(BUILTIN_TOOLS);
// Parsed when a session first reads them; a bad agent file fails there, naming the file and the field.
const agents = lazyAgentRegistry(() =>
  createAgentRegistry(BUNDLED_AGENT_FILES, [
    ...tools.names(),
    ...sessionKinds.toolSpecs().map((spec) => spec.name),
  ]),
);

export interface SessionRuntime {
  deps: AgentDeps;
  loop: AgentLoop;
  model: ModelClient;
  /** SESSION_TOKEN_BUDGET over this session's usage; null when the deployment sets none. */
  budget: SessionTokenBudget | null;
  grants: SessionGrants;
}

/** Builds the loop, model and tools of a session from its stored settings and the deployment's config. */
export function buildSessionRuntime(
  state: SessionState,
  config: Config,
  env: Env | null = null,
): SessionRuntime {
  // The person's grants, asked before an approval opens and told of those made from a card.
  const grants = new SessionGrants(state, config.inboxDisabled || !env ? null : (who) => inboxStub(env, who));
  const model = state.createModel(config);
  const budget = tokenBudget(state, config);
  let runtime: SessionRuntime | null = null;
  const deps = state.agentDeps({
    // The loop calls the model through the budget; `runtime.model` stays the model itself.
    model: budget ? budgetedModel(model, budget) : model,
    // The forms MCP servers push need the agent's stores, which are built around this registry.
    tools: sessionTools(state, config, () => {
      if (!runtime) throw new Error("a live MCP form arrived before the session's runtime was built");
      return runtime.deps;
    }),
    kinds: sessionKinds,
    agents,
    cardDeadlines: state.cardDeadlines.policies(() => [config.deadlinePolicies, state.deadlinePolicies()]),
    settings: {
      model: config.model,
      maxTokens: config.maxTokens,
      interactionTimeoutMs: state.interactionTimeoutMs(config),
      maxTurnIterations: config.maxTurnIterations,
      watchdogMs: WATCHDOG_MS,
      maxFormsPerToolCall: config.maxFormsPerToolCall,
      maxAgentDepth: config.maxAgentDepth,
      modelRetryBaseMs: config.modelRetryBaseMs,
      modelRetryGiveUpMs: config.modelRetryGiveUpMs,
      contextTokens: config.contextTokens,
    },
  });
  if (budget) deps.budget = budget;
  deps.grants = grants;
  deps.approvals = state.cardApprovals.withPolicies(config.approvalPolicies);
  runtime = { deps, loop: new AgentLoop(deps), model, budget, grants };
  return runtime;
}

function tokenBudget(state: SessionState, config: Config): SessionTokenBudget | null {
  if (config.sessionTokenBudget === null) return null;
  return new SessionTokenBudget(
    state.meta,
    () => state.clock.now(),
    config.sessionTokenBudget,
    () => ({
      sessionId: state.meta.string("session_id"),
    }),
  );
}

/** The built-in tools, plus the tools of the MCP servers this session selected. */
function sessionTools(state: SessionState, config: Config, agentDeps: () => AgentDeps): ToolRegistry {
  const selected = new Set(state.mcp.selected());
  if (selected.size === 0) return tools;
  return createSessionTools({
    builtin: BUILTIN_TOOLS,
    servers: config.mcpServers.filter((server) => selected.has(server.name)),
    store: state.mcp,
    calls: state.mcpCalls,
    live: createLiveForms(agentDeps),
    maxFormsPerCall: config.maxFormsPerToolCall,
    fetch: (input, init) => fetch(input, init),
    now: () => state.clock.now(),
    onProblem: (message) => state.events.append("error", { code: "mcp_server", message }),
  });
}

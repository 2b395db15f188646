// The tool phase of a turn: every tool_use of the last assistant message gets exactly one result,
// from the policy, a person (via an interaction) or the tool itself.

import { assessCall } from "../assessment/assess-call";
import { grantOfferFor } from "../grants/grant-offer";
import { PERMISSION_GATE_KIND } from "../interactions/kinds/names";
import type { ToolUseBlockParam } from "../model/model-client";
import { toolStateOf } from "../tools/tool-state";
import type { AgentDeps } from "./agent-deps";
import { editedInputOf, noteEdited } from "./edited-input";
import { topMark } from "./frame-mark";
import { type OpenInteractionDeps, openInteraction } from "./open-interaction";
import { decide, type PermissionDecision, type PolicyTool } from "./permission-policy";
import type { GrantDecision } from "./ports";
import { resolveByGrant } from "./resolve-interaction";
import { toolElicitation } from "./tool-elicitation";
import { recordResult } from "./tool-results";

export type ToolPhaseOutcome = "complete" | "waiting" | "aborted";

/** What running one tool call reads and writes; settling a step's calls also reads the rules. */
type RunToolDeps = OpenInteractionDeps & Pick<AgentDeps, "toolContext" | "tools">;

export async function settleToolCalls(
  deps: RunToolDeps & Pick<AgentDeps, "rules" | "grants">,
  uses: ToolUseBlockParam[],
  signal: AbortSignal,
): Promise<ToolPhaseOutcome> {
  // The person's grants decide, in one request, the calls that would open an approval.
  const granted = await grantsFor(deps, uses);
  if (signal.aborted) return "aborted";
  // Pass 1 is synchronous: prompts reach every device before any slow tool starts.
  const toRun: ToolUseBlockParam[] = [];
  // Calls a person approved with input they edited: those run with the edit.
  const edited = new Set<string>();
  // A tool waiting on a form it opened runs again only once that form is resolved.
  const waitingOnForm = new Set(deps.interactions.pending().map((pending) => pending.toolCallId));
  for (const use of uses) {
    if (deps.results.get(use.id) || waitingOnForm.has(use.id)) continue;
    const interaction = deps.interactions.get(use.id);
    if (interaction) {
      const input = editedInputOf(deps, interaction);
      if (interaction.status === "approved") toRun.push(input ? { ...use, input } : use);
      if (input) edited.add(use.id);
      continue;
    }
    const kind = deps.kinds.byToolName(use.name);
    if (kind) {
      openInteraction(deps, kind.kind, use, use.input);
      continue;
    }
    const tool = deps.tools.get(use.name);
    if (!tool) {
      toRun.push(use); // the registry answers with an "unknown tool" error the model can recover from
      continue;
    }
    const invalid = deps.tools.validate(use.name, use.input);
    if (invalid) {
      recordResult(deps, use.id, use.name, invalid);
      continue;
    }
    const { decision, needed } = decideCall(deps, tool, use);
    if (decision.behavior === "allow") toRun.push(use);
    else if (decision.behavior === "deny")
      recordResult(deps, use.id, use.name, { content: decision.message, isError: true });
    else {
      const request = {
        toolName: use.name,
        input: use.input,
        risk: tool.risk,
        description: tool.description,
        ...(tool.mcp ? { mcp: tool.mcp } : {}),
        // Parley's own loop has no working folder: a relative path counts as inside.
        assessment: assessCall({
          toolName: use.name,
          input: use.input,
          cwd: null,
          mcp: tool.mcp ?? null,
          ownRisk: tool.risk,
        }),
        ...grantOfferOf(use.name, use.input),
      };
      // An allow grant is one person's standing yes: never enough for a call that needs several.
      const found = granted.get(use.id);
      const verdict = found && (needed <= 1 || found.effect === "deny") ? found : undefined;
      if (verdict) {
        settleByGrant(deps, use, request, verdict);
        if (verdict.effect === "allow") toRun.push(use);
      } else openInteraction(deps, PERMISSION_GATE_KIND, use, request, needed);
    }
  }

  for (const use of toRun) {
    if (signal.aborted) return "aborted";
    if (deps.results.get(use.id)) continue;
    await runTool(deps, use, signal, edited.has(use.id));
    if (signal.aborted) return "aborted";
  }
  return uses.every((use) => deps.results.get(use.id)) ? "complete" : "waiting";
}

/** What the grants decide for the calls that the policy would ask about, by call id. */
async function grantsFor(
  deps: RunToolDeps & Pick<AgentDeps, "rules" | "grants">,
  uses: ToolUseBlockParam[],
): Promise<Map<string, GrantDecision>> {
  const decided = new Map<string, GrantDecision>();
  if (!deps.grants) return decided;
  const asked = uses.filter((use) => {
    if (deps.results.get(use.id) || deps.interactions.get(use.id) || deps.kinds.byToolName(use.name))
      return false;
    const tool = deps.tools.get(use.name);
    if (!tool || deps.tools.validate(use.name, use.input)) return false;
    return decideCall(deps, tool, use).decision.behavior === "ask";
  });
  if (asked.length === 0) return decided;
  const verdicts = await deps.grants.decide(asked.map((use) => ({ toolName: use.name, input: use.input })));
  asked.forEach((use, i) => {
    const verdict = verdicts[i];
    if (verdict) decided.set(use.id, verdict);
  });
  return decided;
}

/**
 * The permission policy's decision, and how many distinct approvals the call needs: a call a
 * deployment's rule makes wait for several is always asked — no mode, "always allow" or read-only
 * risk skips it — though plan mode still refuses it.
 */
function decideCall(
  deps: Pick<AgentDeps, "approvals" | "turn" | "rules">,
  tool: PolicyTool,
  use: ToolUseBlockParam,
): { decision: PermissionDecision; needed: number } {
  const decision = decide(tool, deps.turn.mode(), deps.rules.allowed());
  const needed = deps.approvals?.needed({ toolName: use.name, input: use.input }) ?? 1;
  if (needed > 1 && decision.behavior === "allow") return { decision: { behavior: "ask" }, needed };
  return { decision, needed };
}

/** The approval a grant decided: stored resolved (no prompt, no push), and a refusal's result written. */
function settleByGrant(
  deps: RunToolDeps,
  use: ToolUseBlockParam,
  request: Record<string, unknown>,
  verdict: GrantDecision,
): void {
  const now = deps.clock.now();
  deps.interactions.create({
    id: use.id,
    toolCallId: use.id,
    frameId: topMark(deps).frameId,
    kind: PERMISSION_GATE_KIND,
    toolName: use.name,
    request,
    deadline: now,
    createdAt: now,
  });
  const record = deps.interactions.get(use.id);
  if (record) resolveByGrant(deps, record, verdict);
}

async function runTool(
  deps: RunToolDeps,
  use: ToolUseBlockParam,
  signal: AbortSignal,
  edited: boolean,
): Promise<void> {
  const tool = deps.tools.get(use.name);
  if (tool && !tool.idempotent && deps.results.wasStarted(use.id)) {
    recordResult(deps, use.id, use.name, {
      content: `Tool ${use.name} was interrupted by a server restart and was not run again, because repeating it is not safe. Check its effect before retrying.`,
      isError: true,
    });
    return;
  }
  deps.results.markStarted(use.id);
  // Devices show the input that runs, not the one the model asked for.
  if (edited)
    deps.events.append("tool_call_end", {
      toolCallId: use.id,
      name: use.name,
      input: use.input,
      ...topMark(deps),
    });
  const forms = toolElicitation(deps, use);
  const { toolState, ...host } = deps.toolContext(signal);
  const context = {
    ...host,
    state: toolStateOf(toolState, use.name),
    elicit: forms.elicit,
    toolCallId: use.id,
  };
  const result = await deps.tools.execute(use.name, use.input, context);
  if (signal.aborted) return; // a cancel already recorded this call's result
  if (result.paused || forms.paused) {
    // The run ended cleanly at a form: when it is answered the tool runs again from the start,
    // which is not the interrupted run a restart must refuse to repeat.
    deps.results.clearStarted(use.id);
    return;
  }
  recordResult(
    deps,
    use.id,
    use.name,
    edited ? { ...result, content: noteEdited(use, result.content) } : result,
  );
}

/** The grant a card may offer for a call of Parley's own loop, which has no working folder. */
function grantOfferOf(toolName: string, input: unknown): { grantOffer?: { rule: string; covers: boolean } } {
  const offer = grantOfferFor({ toolName, input, cwd: null });
  return offer ? { grantOffer: offer } : {};
}

// `ctx.elicit` for one run of one tool call: a durable interrupt. The k-th call returns the k-th
// recorded form result, or stores the form and ends the run; the tool runs again once it resolves.
import { elicitationKind, elicitationWord, elicitResultOf } from "../interactions/elicitation-kinds";
import type { ToolUseBlockParam } from "../model/model-client";
import type { ElicitRequestParams, ElicitResult } from "../protocol/forms/elicitation";
import { ToolPause } from "../tools/define-tool";
import type { AgentDeps } from "./agent-deps";
import { storePending } from "./open-interaction";

/** The id of a tool call's k-th form (1-based): derived, so a re-run finds the same row. */
export function formId(toolCallId: string, k: number): string {
  return `${toolCallId}-form-${k}`;
}

/** True for an interaction a tool opened mid-run, rather than the tool call's own. */
export function isToolForm(record: { id: string; toolCallId: string }): boolean {
  return record.id !== record.toolCallId;
}

export interface ToolElicitation {
  elicit(params: ElicitRequestParams): Promise<ElicitResult>;
  /** Set once this run asked for a form that has no answer yet: its output, if any, is void. */
  readonly paused: boolean;
}

export function toolElicitation(
  deps: Pick<
    AgentDeps,
    "clock" | "deadlines" | "events" | "frames" | "interactions" | "kinds" | "settings" | "turn"
  >,
  use: ToolUseBlockParam,
): ToolElicitation {
  let asked = 0;
  let paused = false;
  const limit = deps.settings.maxFormsPerToolCall;
  return {
    get paused() {
      return paused;
    },
    async elicit(params) {
      asked += 1;
      if (paused) throw new ToolPause(); // a tool that swallowed the first pause still stops here
      if (asked > limit) {
        throw new Error(`it asked the user more than ${limit} times in one call, the limit per tool call`);
      }
      const id = formId(use.id, asked);
      const record = deps.interactions.get(id);
      const recorded = record && elicitResultOf(record.status, record.response);
      if (recorded) return recorded;
      paused = true;
      if (record) throw new ToolPause(); // still waiting (not normally reached: pending calls do not run)
      const kind = elicitationKind(params);
      const opened = deps.kinds.open(kind, params);
      if (!opened.ok) throw new Error(`its ${elicitationWord(params)} is invalid: ${opened.message}`);
      storePending(deps, { id, toolCallId: use.id, toolName: use.name, kind, request: opened.request });
      throw new ToolPause();
    },
  };
}

// Cards whose deadline passed: each is resolved as its deadline policy says, and the loop resumes
// with their results.
import { timeOutDue } from "../../agent/resolve-interaction";
import type { SqlInteractionStore } from "../interaction-store";
import type { SessionRuntime } from "../session-runtime";
import type { DeadlineSource } from "./deadline-source";

export function interactionTimeoutSource(
  interactions: SqlInteractionStore,
  agent: () => SessionRuntime,
): DeadlineSource {
  return {
    name: "interaction deadlines",
    next: () => interactions.earliestDeadline(),
    fire(now, run) {
      if (timeOutDue(agent().deps, now) > 0) run.wake();
      return undefined;
    },
  };
}

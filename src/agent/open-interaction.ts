// Pausing: a pending interaction is a row with a deadline plus a prompt event. Nothing waits in
// memory; the answer, the alarm or a cancel resumes the loop from storage.
import type { ToolUseBlockParam } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import { recordResult } from "./tool-results";

/** Opens an interaction for a tool call; false (with an error result recorded) when the request is invalid. */
export function openInteraction(
  deps: AgentDeps,
  kind: string,
  use: ToolUseBlockParam,
  rawRequest: unknown,
): boolean {
  const opened = deps.kinds.open(kind, rawRequest);
  if (!opened.ok) {
    recordResult(deps, use.id, use.name, {
      content: `Invalid ${use.name} input: ${opened.message}`,
      isError: true,
    });
    return false;
  }
  const createdAt = deps.clock.now();
  const expiresAt = createdAt + deps.settings.interactionTimeoutMs;
  deps.interactions.create({
    id: use.id,
    toolCallId: use.id,
    kind,
    toolName: use.name,
    request: opened.request,
    deadline: expiresAt,
    createdAt,
  });
  deps.events.append(deps.kinds.promptEvent(kind), {
    toolCallId: use.id,
    interactionId: use.id,
    kind,
    toolName: use.name,
    request: opened.request,
    createdAt,
    expiresAt,
  });
  const turn = deps.turn.current();
  if (turn && !turn.pausedForPerson) deps.turn.save({ ...turn, pausedForPerson: true });
  deps.deadlines.rearm();
  return true;
}

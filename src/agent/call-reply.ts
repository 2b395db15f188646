// What a finished model call leaves behind: the turn's usage and progress, the assistant message
// in the transcript, a notice for a stop that needs one, and the turn's end when nothing follows.
import type { AgentDeps } from "./agent-deps";
import type { TurnRecord } from "./ports";
import { reviewStop } from "./stop-reasons";
import type { AssembledMessage } from "./stream-assembler";
import { toolUses } from "./tool-results";
import { endTurn } from "./turn-ending";

/** Records the reply of a model call; `current` is the turn as saved when the call started. */
export function recordReply(deps: AgentDeps, current: TurnRecord, message: AssembledMessage): void {
  const reply = reviewStop(message.content, message.stopReason);
  const usage = {
    input_tokens: current.usage.input_tokens + message.usage.input_tokens,
    output_tokens: current.usage.output_tokens + message.usage.output_tokens,
  };
  const { retry: _settled, ...rest } = current;
  const finished: TurnRecord = {
    ...rest,
    usage,
    callInFlight: false,
    continuePaused: reply.continuePaused,
  };
  deps.turn.save(finished);
  if (reply.content.length > 0) deps.transcript.append("assistant", reply.content);
  if (reply.notice) deps.events.append("turn_notice", { turnId: current.id, ...reply.notice });
  if (!reply.continuePaused && toolUses(reply.content).length === 0)
    endTurn(deps, finished, message.stopReason ?? "end_turn", null);
}

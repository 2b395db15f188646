// One command from a device or an HTTP route, once its credential is admitted: refused beyond what
// its role may send, else run as an external agent's command or handed to the loop's handler.

import type { AgentDeps } from "../agent/agent-deps";
import type { GrantDecision } from "../agent/external-interaction";
import { type Access, mayDecideBeyondCard, mayRun, OWNER } from "../protocol/access";
import type { SessionCommand } from "../protocol/commands";
import { answererName, type Decider, type DeviceKind } from "../protocol/decider";
import { deciderOf } from "./answerer";
import { recordRetryNow, refuseEarlyRetryNow } from "./budgets/retry-now-interval";
import { type CommandOutcome, executeCommand } from "./command-handler";
import { extendDeadline } from "./extend-deadline";
import { runMessageCommand } from "./external-messages";
import { externalAgentOf, runExternalCommand, SqlExternalKeys } from "./external-session";
import { refuse } from "./session-refusal";
import type { SessionRuntime } from "./session-runtime";
import type { SessionState } from "./session-state";
import { setDeadlinePolicies } from "./set-deadline-policies";

/**
 * `device` is the kind of device the command entered through; `decider` names who sends it when
 * the Worker knows better than the token (the inbox's actor).
 */
export function runSessionCommand(
  state: SessionState,
  runtime: SessionRuntime,
  sent: {
    command: SessionCommand;
    deviceId: string | null;
    device: DeviceKind;
    access: Access;
    decider?: Decider | undefined;
    /** What the person's grants decided for the approval an agent opens, asked beforehand. */
    granted?: GrantDecision | null;
  },
): CommandOutcome {
  const { command, deviceId, access } = sent;
  if (!mayRun(access.role, command.type))
    refuse("forbidden", `A ${access.role} link may not send ${command.type}`);
  const { deps, loop } = runtime;
  // The owner may give any answer: the card is looked up only for another role's.
  if (access.role !== OWNER.role && !mayDecideBeyondCard(access.role, reachesBeyondCard(deps, command)))
    refuse(
      "forbidden",
      `Only the session's owner may always allow a tool, make a grant beyond this session or accept a plan with edits; a ${access.role} link may approve once`,
    );
  if (command.type === "post_progress") {
    const logIds = { sessionId: state.meta.string("session_id") ?? "", linkId: access.linkId };
    state.progressBudget.take(access, command.events.length, logIds);
  }
  if (command.type === "mark_delivered" || externalAgentOf(state.meta)) {
    const by = answererName(sent.decider ?? deciderOf(state, access, sent.device));
    const message = runMessageCommand(
      { state, deps, sentMessages: state.sentMessages, by },
      command,
      deviceId,
    );
    if (message) return message;
  }
  const external = runExternalCommand(
    { deps, meta: state.meta, keys: new SqlExternalKeys(state.sql), access, granted: sent.granted ?? null },
    command,
  );
  if (external) return external;
  runtime.budget?.refuseCommand(command, access);
  const decider = sent.decider ?? deciderOf(state, access, sent.device);
  const answeredBy = answererName(decider);
  if (command.type === "set_deadline_policies") {
    const kinds = deps.kinds.kinds.map((kind) => kind.kind);
    return setDeadlinePolicies(state, command.deadlinePolicies, kinds);
  }
  if (command.type === "extend_deadline") {
    return extendDeadline(state, deps, { interactionId: command.interactionId, deviceId, answeredBy }, () =>
      loop.advance().catch((error: unknown) => console.error("SessionObject advance failed", error)),
    );
  }
  if (command.type === "retry_now") {
    const logIds = { sessionId: state.meta.string("session_id"), linkId: access.linkId };
    refuseEarlyRetryNow(state.meta, state.clock.now(), logIds);
  }
  const outcome = executeCommand(
    { deps, loop, sentMessages: state.sentMessages, decider },
    command,
    deviceId,
  );
  if (command.type === "retry_now" && outcome.ok) recordRetryNow(state.meta, state.clock.now());
  return outcome;
}

/**
 * True when the command answers a card with an answer its kind says changes the session beyond it.
 * A `respond` names no kind, so the open card it addresses does (the loop's and an external agent's
 * cards alike); an unknown card is left to the answer's own not-found.
 */
function reachesBeyondCard(deps: AgentDeps, command: SessionCommand): boolean {
  const answer = deps.kinds.answerOf(command);
  if (!answer) return false;
  const kind = answer.kind ?? deps.interactions.get(answer.interactionId)?.kind;
  return kind !== undefined && deps.kinds.beyondCard(kind, answer.response);
}

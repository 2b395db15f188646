// One command that passed the session's door (session-door.ts): run as an external agent's message
// or command, as a change of the session's deadlines, or handed to the loop's handler.

import type { GrantDecision } from "../agent/external-interaction";
import type { Access } from "../protocol/access/access";
import { answererName, type Decider, type DeviceKind } from "../protocol/cards/decider";
import type { SessionCommand } from "../protocol/wire/commands";
import { deciderOf } from "./answerer";
import { recordRetryNow } from "./budgets/retry-now-interval";
import { type CommandOutcome, executeCommand } from "./command-handler";
import { extendDeadline } from "./extend-deadline";
import { runMessageCommand } from "./external-messages";
import { externalAgentOf, runExternalCommand, SqlExternalKeys } from "./external-session";
import type { SessionRuntime } from "./session-runtime";
import type { SessionState } from "./session-state";
import { setDeadlinePolicies } from "./set-deadline-policies";

/** A command as the door admitted it: who sends it, from which device, with what the grants decided. */
export interface AdmittedCommand {
  command: SessionCommand;
  deviceId: string | null;
  /** The kind of device the command entered through. */
  device: DeviceKind;
  access: Access;
  /** Who sends it when the Worker knows better than the credential (the inbox's actor). */
  decider: Decider | null;
  /** What the person's grants decided for the approval an agent opens, asked beforehand. */
  granted: GrantDecision | null;
}

/** Runs an admitted command; its guard and budgets were the door's. */
export function runSessionCommand(
  state: SessionState,
  runtime: SessionRuntime,
  sent: AdmittedCommand,
): CommandOutcome {
  const { command, deviceId, access } = sent;
  const { deps, loop } = runtime;
  const decider = sent.decider ?? deciderOf(state, access, sent.device);
  const answeredBy = answererName(decider);
  if (command.type === "mark_delivered" || externalAgentOf(state.meta)) {
    const message = runMessageCommand(
      { state, deps, sentMessages: state.sentMessages, by: answeredBy },
      command,
      deviceId,
    );
    if (message) return message;
  }
  const external = runExternalCommand(
    { deps, meta: state.meta, keys: new SqlExternalKeys(state.sql), access, granted: sent.granted },
    command,
  );
  if (external) return external;
  if (command.type === "set_deadline_policies") {
    const kinds = deps.kinds.kinds.map((kind) => kind.kind);
    return setDeadlinePolicies(state, command.deadlinePolicies, kinds);
  }
  if (command.type === "extend_deadline") {
    return extendDeadline(state, deps, { interactionId: command.interactionId, deviceId, answeredBy }, () =>
      loop.advance().catch((error: unknown) => console.error("SessionObject advance failed", error)),
    );
  }
  const outcome = executeCommand(
    { deps, loop, sentMessages: state.sentMessages, decider },
    command,
    deviceId,
  );
  if (command.type === "retry_now" && outcome.ok) recordRetryNow(state.meta, state.clock.now());
  return outcome;
}

// Creating a session in an empty object: a keyed external session asked for again is found, any
// other second create is refused, and deadline policies must name kinds this session knows.
import { unknownPolicyKinds } from "../protocol/deadline-policy";
import type { CommandOutcome } from "./command-handler";
import { externalAgentOf } from "./external-session";
import type { InboxReport } from "./inbox-report";
import { sessionKinds } from "./session-kinds";
import { refuse } from "./session-refusal";
import type { SessionState } from "./session-state";
import type { SessionInit } from "./session-types";

export interface CreateHost {
  exists(): boolean;
  state(): SessionState;
  /** Built with the stores, so it is there once `state()` was read. */
  inboxReport(): InboxReport | null;
  now(): number;
}

export function createSession(host: CreateHost, init: SessionInit): CommandOutcome {
  if (host.exists()) {
    // A keyed external session's id is derived from its creator and key: asking again finds it.
    const agent = externalAgentOf(host.state().meta);
    if (init.agent?.key && agent?.key === init.agent.key) return { ok: true, result: { created: false } };
    refuse("invalid_input", "Session already exists");
  }
  const unknownKinds = unknownPolicyKinds(
    init.deadlinePolicies ?? {},
    sessionKinds.kinds.map((k) => k.kind),
  );
  if (unknownKinds.length > 0)
    refuse(
      "invalid_input",
      `deadlinePolicies.${unknownKinds.join(", deadlinePolicies.")}: no interaction kind has this name`,
    );
  const state = host.state();
  state.initialize(init);
  host.inboxReport()?.onCreated(host.now());
  state.deadlines.rearm();
  return { ok: true, result: { created: true } };
}

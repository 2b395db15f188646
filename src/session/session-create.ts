// Creating a session in an empty object: a keyed external session asked for again is found, any
// other second create is refused, and deadline policies must name kinds this session knows.

import type { SessionInit } from "../objects/contracts/session";
import type { Outcome } from "../objects/outcome";
import { unknownPolicyKinds } from "../protocol/cards/deadline-policy";
import { externalAgentOf, recordExternalAgent } from "./external-session";
import type { InboxReport } from "./inbox-report/inbox-report";
import { sessionKinds } from "./session-kinds";
import { refuse } from "./session-refusal";
import type { SessionState } from "./session-state";

/** The one table an erased keyed session leaves behind, so its id is never created again. */
const ERASED_TABLE = "erased_keyed_session";

/**
 * Called after the storage of a keyed external session was erased: its id (derived from its key
 * and incarnation salt) stays dead, so a re-creation gets a new salt, a new id and new tokens,
 * and no credential of the old incarnation ever opens anything again.
 */
export function markErased(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS ${ERASED_TABLE} (at INTEGER)`);
}

export function wasErased(sql: SqlStorage): boolean {
  return (
    sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, ERASED_TABLE).toArray().length >
    0
  );
}

export interface CreateHost {
  exists(): boolean;
  /** True where a keyed session lived and was erased (markErased). */
  erased(): boolean;
  state(): SessionState;
  /** Built with the stores, so it is there once `state()` was read. */
  inboxReport(): InboxReport | null;
  now(): number;
}

export function createSession(host: CreateHost, init: SessionInit): Outcome<{ created: boolean }> {
  // The Worker answers this by choosing a new incarnation (src/router/sessions/external-sessions.ts).
  if (host.erased()) refuse("unknown_session", "This keyed session was erased; its id is never used again");
  if (host.exists()) {
    // A keyed external session's id is derived from its creator and key: asking again finds it.
    const meta = host.state().meta;
    const agent = externalAgentOf(meta);
    if (init.agent?.key && agent?.key === init.agent.key) {
      // "This agent" grants are bound to one agent key, so another key may not step into its place;
      // a session the person made without one belongs to the first key that finds it.
      const asker = init.agent.agentKeyId;
      if (asker !== null && agent.agentKeyId !== null && asker !== agent.agentKeyId)
        refuse("forbidden", "This keyed session belongs to another agent key; use a session key of your own");
      if (asker !== null && agent.agentKeyId === null)
        recordExternalAgent(meta, { ...agent, agentKeyId: asker });
      return { ok: true, result: { created: false } };
    }
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

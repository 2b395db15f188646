// The session's inbox report, wired to its stores, the configuration and the Inbox namespace.
import type { Config } from "../../config";
import type { SessionState } from "../session-state";
import { InboxReport } from "./inbox-report";
import { inboxStub } from "./inbox-rpc";
import { SqlOutbox } from "./outbox";

export function sessionInboxReport(state: SessionState, config: Config, env: Env): InboxReport {
  const outbox = new SqlOutbox(state.sql, () => state.clock.now());
  state.deferWrites(outbox);
  return new InboxReport(state, outbox, config.inboxDisabled ? null : (creator) => inboxStub(env, creator));
}

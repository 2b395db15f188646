// `GET /api/sessions/:id/export`: the session as one JSON document the owner can keep — the
// transcript exactly as the model saw it and the whole event log.
import type { SessionExport } from "../objects/contracts/session";
import type { SessionSnapshot } from "../protocol/session/session";
import type { SessionState } from "./session-state";

/** The session as its export document, read in one go. */
export function exportSession(state: SessionState, snapshot: SessionSnapshot): SessionExport {
  const events: unknown[] = [];
  for (const row of state.sql.iterate<{ frame: string }>(`SELECT frame FROM events ORDER BY seq`)) {
    events.push(JSON.parse(row.frame));
  }
  return {
    format: "parley.session-export.v1",
    exportedAt: state.clock.now(),
    snapshot,
    shareLinks: state.links.list(),
    transcript: state.transcript.messages(),
    events,
  };
}

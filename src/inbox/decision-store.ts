// The person's decision record in their Inbox object's SQLite: one row per card resolution (a
// session's outbox row, applied once), cursor-paged, exported, and pruned after the retention.
import * as z from "zod";
import { Decider } from "../protocol/cards/decider";
import {
  DECISION_CSV_COLUMNS,
  DecisionData,
  type DecisionPage,
  type DecisionQuery,
  type DecisionRecord,
  StoredDecider,
} from "../protocol/inbox/decisions";
import type { InteractionOutcome } from "../protocol/session/session";
import type { SqlCounter } from "../storage/sql-counter";

type DecisionRow = {
  decision_id: number;
  at: number;
  session_id: string;
  interaction_id: string;
  agent: string;
  kind: string;
  tool_name: string;
  input_digest: string;
  outcome: string;
  decided_by: string;
  grant_id: string | null;
  approvals: string | null;
  escalations: string | null;
  session_exists: number;
};

/** Most records one export holds (the newest). */
export const MAX_EXPORTED_DECISIONS = 50_000;

export class DecisionStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
    private readonly retentionMs: number,
  ) {}

  /** Records one resolution; a repeat of the same card's resolution is ignored. */
  record(
    sessionId: string,
    resolution: { interactionId: string; outcome: InteractionOutcome; resolvedAt: number },
    decision: DecisionData,
  ): void {
    this.sql.run(
      ["decisions"],
      `INSERT OR IGNORE INTO decisions (at, session_id, interaction_id, agent, kind, tool_name, input_digest, outcome,
         decided_by, grant_id, approvals, escalations)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      resolution.resolvedAt,
      sessionId,
      resolution.interactionId,
      decision.agent,
      decision.kind,
      decision.toolName,
      decision.inputDigest,
      resolution.outcome,
      JSON.stringify(decision.decidedBy),
      decision.decidedBy.kind === "grant" ? decision.decidedBy.id : null,
      decision.approvals ? JSON.stringify(decision.approvals) : null,
      decision.escalations ? JSON.stringify(decision.escalations) : null,
    );
  }

  /** Drops records older than the retention. */
  prune(): void {
    this.sql.run(["decisions"], `DELETE FROM decisions WHERE at < ?`, this.now() - this.retentionMs);
  }

  page(query: DecisionQuery): DecisionPage {
    this.prune();
    const rows = this.sql.all<DecisionRow>(
      `${SELECT} WHERE d.decision_id > ? AND (? IS NULL OR d.session_id = ?) AND (? IS NULL OR d.tool_name = ?)
       ORDER BY d.decision_id LIMIT ?`,
      query.after,
      query.session ?? null,
      query.session ?? null,
      query.tool ?? null,
      query.tool ?? null,
      query.limit + 1,
    );
    const decisions = rows.slice(0, query.limit).map(recordOf);
    const last = decisions[decisions.length - 1];
    return { decisions, next: rows.length > query.limit && last ? last.decisionId : null };
  }

  /** Every kept record, oldest first (at most MAX_EXPORTED_DECISIONS, the newest). */
  all(): DecisionRecord[] {
    this.prune();
    return this.sql
      .all<DecisionRow>(`${SELECT} ORDER BY d.decision_id DESC LIMIT ?`, MAX_EXPORTED_DECISIONS)
      .map(recordOf)
      .reverse();
  }
}

const Approvers = z.array(Decider);
const Escalations = DecisionData.shape.escalations.unwrap();

const SELECT = `SELECT d.*, EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = d.session_id) AS session_exists
  FROM decisions d`;

function recordOf(row: DecisionRow): DecisionRecord {
  return {
    decisionId: row.decision_id,
    at: row.at,
    sessionId: row.session_id,
    interactionId: row.interaction_id,
    agent: row.agent,
    kind: row.kind,
    toolName: row.tool_name,
    inputDigest: row.input_digest,
    outcome: row.outcome as InteractionOutcome,
    decidedBy: StoredDecider.parse(JSON.parse(row.decided_by)),
    ...(row.approvals ? { approvals: Approvers.parse(JSON.parse(row.approvals)) } : {}),
    ...(row.escalations ? { escalations: Escalations.parse(JSON.parse(row.escalations)) } : {}),
    sessionExists: row.session_exists === 1,
  };
}

/** The records as CSV (RFC 4180), opening with DECISION_CSV_COLUMNS. */
export function decisionsCsv(records: readonly DecisionRecord[]): string {
  const lines = [DECISION_CSV_COLUMNS.join(",")];
  for (const r of records) {
    const by = r.decidedBy;
    const who = by.kind === "withdrawal" ? `withdrawn by ${by.label ?? "the agent"}` : (by.label ?? by.kind);
    const grant = by.kind === "grant" ? (by.id ?? "") : "";
    const cells = [
      r.decisionId,
      new Date(r.at).toISOString(),
      r.sessionId,
      r.agent,
      r.kind,
      r.toolName,
      r.inputDigest,
      r.outcome,
      who,
      by.device ?? "",
      grant,
      by.kind,
      by.id ?? "",
      (r.approvals ?? []).map((approver) => approver.label ?? approver.kind).join("; "),
      by.personId ?? "",
    ];
    lines.push(cells.map((cell) => csvCell(String(cell))).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

function csvCell(text: string): string {
  // A leading = + - @ would be a formula in a spreadsheet: the cell is quoted with a ' before it.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replaceAll('"', '""')}"` : safe;
}

// Pending and resolved interactions. Resolution is a compare-and-set on `status = 'pending'`, so
// the first answer wins and a repeated alarm delivery changes nothing.
import type { InteractionRecord, InteractionStore } from "../../agent/ports";
import { answererName, Decider } from "../../protocol/cards/decider";
import { type InteractionOutcome, InteractionStatus } from "../../protocol/session/session";
import type { Kept, KeptPerKey, SqlCounter } from "../../storage/sql-counter";

type Row = {
  id: string;
  tool_call_id: string;
  frame_id: string;
  kind: string;
  tool_name: string;
  request: string;
  status: string;
  response: string | null;
  deadline: number;
  created_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
  answered_by: string | null;
  decider: string | null;
};

const COLUMNS = `id, tool_call_id, frame_id, kind, tool_name, request, status, response, deadline, created_at, resolved_at, resolved_by, answered_by, decider`;

export class SqlInteractionStore implements InteractionStore {
  /** The earliest pending deadline. Asked on every re-arm of the alarm; kept until `interactions` changes. */
  readonly earliestDeadline: () => number | null;
  // Rows as read, kept until `interactions` changes: one step asks for the pending cards and for
  // the card it resolves several times (answer, watchdog, settling, opening the next card). The
  // records handed out are built afresh from them, since a caller may change what it was given.
  // This store's own writes bring them up to date (each statement costs more than the rows it reads).
  private readonly pendingRows: Kept<Row[]>;
  private readonly rowOf: KeptPerKey<string, Row | null>;

  constructor(private readonly sql: SqlCounter) {
    this.pendingRows = sql.keptUntilWritten(["interactions"], () =>
      sql.all<Row>(`SELECT ${COLUMNS} FROM interactions WHERE status = 'pending' ORDER BY created_at, rowid`),
    );
    this.rowOf = sql.keptPerKey(["interactions"], (id: string) =>
      sql.one<Row>(`SELECT ${COLUMNS} FROM interactions WHERE id = ?`, id),
    );
    // From the kept pending rows: a few cards at most, and read anyway by the same step.
    this.earliestDeadline = () => {
      const deadlines = this.pendingRows().map((row) => row.deadline);
      return deadlines.length > 0 ? Math.min(...deadlines) : null;
    };
  }

  get(id: string): InteractionRecord | null {
    // A card being answered is pending, and the pending rows are kept by every step (and read by
    // a reconnect's hello): a new instance answers it without a query of its own.
    const row = this.pendingRows().find((pending) => pending.id === id) ?? this.rowOf(id);
    return row ? toRecord(row) : null;
  }

  pending(): InteractionRecord[] {
    return this.pendingRows().map(toRecord);
  }

  /** The ids of the pending cards, from the kept rows (nothing parsed). */
  pendingIds(): string[] {
    return this.pendingRows().map((row) => row.id);
  }

  due(now: number): InteractionRecord[] {
    return this.sql
      .all<Row>(
        `SELECT ${COLUMNS} FROM interactions WHERE status = 'pending' AND deadline <= ? ORDER BY deadline`,
        now,
      )
      .map(toRecord);
  }

  create(
    record: Omit<
      InteractionRecord,
      "status" | "response" | "resolvedAt" | "resolvedBy" | "answeredBy" | "decider"
    >,
  ): void {
    const row: Row = {
      id: record.id,
      tool_call_id: record.toolCallId,
      frame_id: record.frameId,
      kind: record.kind,
      tool_name: record.toolName,
      request: JSON.stringify(record.request),
      status: "pending",
      response: null,
      deadline: record.deadline,
      created_at: record.createdAt,
      resolved_at: null,
      resolved_by: null,
      answered_by: null,
      decider: null,
    };
    this.sql.run(
      ["interactions"],
      `INSERT INTO interactions (id, tool_call_id, frame_id, kind, tool_name, request, status, deadline, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      row.id,
      row.tool_call_id,
      row.frame_id,
      row.kind,
      row.tool_name,
      row.request,
      row.deadline,
      row.created_at,
    );
    // In the pending list's order (created_at, then rowid: the new row's is the highest).
    this.pendingRows.patch((rows) => {
      const after = rows.findLastIndex((other) => other.created_at <= row.created_at);
      return [...rows.slice(0, after + 1), row, ...rows.slice(after + 1)];
    });
    this.rowOf.patch((rows) => rows.set(row.id, row));
  }

  /** Moves a pending card's deadline; false when it is no longer pending. */
  extend(id: string, deadline: number): boolean {
    const written = this.sql.run(
      ["interactions"],
      `UPDATE interactions SET deadline = ? WHERE id = ? AND status = 'pending'`,
      deadline,
      id,
    );
    if (written === 0) return false;
    this.patchRow(id, (row) => ({ ...row, deadline }));
    return true;
  }

  resolve(
    id: string,
    outcome: InteractionOutcome,
    response: unknown,
    resolvedBy: string | null,
    at: number,
    decider: Decider | null = null,
  ): boolean {
    const json = response === undefined ? null : JSON.stringify(response);
    const answeredBy = answererName(decider);
    const deciderJson = decider === null ? null : JSON.stringify(decider);
    const written = this.sql.run(
      ["interactions"],
      `UPDATE interactions SET status = ?, response = ?, resolved_by = ?, resolved_at = ?, answered_by = ?, decider = ?
       WHERE id = ? AND status = 'pending'`,
      outcome,
      json,
      resolvedBy,
      at,
      answeredBy,
      deciderJson,
      id,
    );
    if (written === 0) return false;
    this.patchRow(id, (row) => ({
      ...row,
      status: outcome,
      response: json,
      resolved_by: resolvedBy,
      resolved_at: at,
      answered_by: answeredBy,
      decider: deciderJson,
    }));
    return true;
  }

  // After this store changed pending row `id`: the kept rows take the change (a row no longer
  // pending leaves the pending list, and is kept by id, since `get` found it among the pending).
  private patchRow(id: string, change: (row: Row) => Row): void {
    let changed: Row | undefined;
    this.pendingRows.patch((rows) =>
      rows.flatMap((row) => {
        if (row.id !== id) return [row];
        changed = change(row);
        return changed.status === "pending" ? [changed] : [];
      }),
    );
    this.rowOf.patch((rows) => {
      const row = rows.get(id);
      if (row) rows.set(id, change(row));
      else if (changed) rows.set(id, changed);
    });
  }
}

function toRecord(row: Row): InteractionRecord {
  return {
    id: row.id,
    toolCallId: row.tool_call_id,
    frameId: row.frame_id,
    kind: row.kind,
    toolName: row.tool_name,
    // Any JSON: each kind reads its own request with its own schema where it uses it.
    request: JSON.parse(row.request) as unknown,
    status: InteractionStatus.parse(row.status),
    response: row.response === null ? null : JSON.parse(row.response),
    deadline: row.deadline,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by,
    answeredBy: row.answered_by,
    // Rows resolved before deciders were stored have none; their events carry none either.
    decider: row.decider === null ? null : Decider.parse(JSON.parse(row.decider)),
  };
}

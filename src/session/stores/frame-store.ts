// The agent stack in SQLite: one row per delegated agent's frame. Ending a frame is a
// compare-and-set on `status = 'active'`, so a frame is popped once however often it is asked.
import * as z from "zod";
import type { FrameRecord, FrameStore } from "../../agent/ports";
import { lazySchema } from "../../protocol/lazy-schema";
import { AgentOutcome } from "../../protocol/session/agents";
import type { Kept, SqlCounter } from "../../storage/sql-counter";

type Row = {
  id: string;
  parent_frame_id: string;
  parent_tool_call_id: string;
  agent: string;
  task: string;
  depth: number;
  status: string;
  iterations: number;
  started_at: number;
  ended_at: number | null;
};

const COLUMNS = `id, parent_frame_id, parent_tool_call_id, agent, task, depth, status, iterations, started_at, ended_at`;
const Status = lazySchema(() => z.union([z.literal("active"), AgentOutcome]));

export class SqlFrameStore implements FrameStore {
  // A step asks for the top many times (each transcript read and write names its frame): kept
  // until `frames` is written.
  private readonly keptTop: Kept<FrameRecord | null>;

  constructor(private readonly sql: SqlCounter) {
    this.keptTop = sql.keptUntilWritten(["frames"], () => {
      const row = sql.one<Row>(
        `SELECT ${COLUMNS} FROM frames WHERE status = 'active' ORDER BY depth DESC LIMIT 1`,
      );
      return row ? toRecord(row) : null;
    });
  }

  stack(): FrameRecord[] {
    return this.sql
      .all<Row>(`SELECT ${COLUMNS} FROM frames WHERE status = 'active' ORDER BY depth`)
      .map(toRecord);
  }

  top(): FrameRecord | null {
    const top = this.keptTop();
    // A copy: a caller may change the record it was given.
    return top && { ...top };
  }

  get(frameId: string): FrameRecord | null {
    const row = this.sql.one<Row>(`SELECT ${COLUMNS} FROM frames WHERE id = ?`, frameId);
    return row ? toRecord(row) : null;
  }

  push(frame: Omit<FrameRecord, "status" | "iterations" | "endedAt">): void {
    this.sql.run(
      ["frames"],
      `INSERT INTO frames (id, parent_frame_id, parent_tool_call_id, agent, task, depth, status, iterations, started_at)
       VALUES (?, ?, ?, ?, ?, ?, 'active', 0, ?)`,
      frame.frameId,
      frame.parentFrameId,
      frame.parentToolCallId,
      frame.agent,
      frame.task,
      frame.depth,
      frame.startedAt,
    );
  }

  countModelCall(frameId: string): void {
    this.sql.run(["frames"], `UPDATE frames SET iterations = iterations + 1 WHERE id = ?`, frameId);
  }

  end(frameId: string, outcome: AgentOutcome, at: number): boolean {
    return (
      this.sql.run(
        ["frames"],
        `UPDATE frames SET status = ?, ended_at = ? WHERE id = ? AND status = 'active'`,
        outcome,
        at,
        frameId,
      ) > 0
    );
  }
}

function toRecord(row: Row): FrameRecord {
  return {
    frameId: row.id,
    parentFrameId: row.parent_frame_id,
    parentToolCallId: row.parent_tool_call_id,
    agent: row.agent,
    task: row.task,
    depth: row.depth,
    status: Status.parse(row.status),
    iterations: row.iterations,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

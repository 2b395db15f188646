// The person's machines and the starts asked of them, in the Machines object's SQLite: a row per
// machine (keyed by its agent key id) with what its daemon last advertised, and a row per start.
import * as z from "zod";
import { MachineHello, type MachineView } from "../protocol/machines/machines";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS machines (
    machine_id TEXT PRIMARY KEY, label TEXT NOT NULL, agents TEXT NOT NULL, folders TEXT NOT NULL,
    seen_at INTEGER NOT NULL)`,
  // status: asked (sent, no answer yet), started, refused, ended (the process exited), stopped.
  `CREATE TABLE IF NOT EXISTS starts (
    session_id TEXT PRIMARY KEY, machine_id TEXT NOT NULL, agent TEXT NOT NULL, folder TEXT NOT NULL,
    status TEXT NOT NULL, reason TEXT, at INTEGER NOT NULL)`,
];

export const StartStatus = z.enum(["asked", "started", "refused", "ended", "stopped"]);
export type StartStatus = z.infer<typeof StartStatus>;

const MachineRow = z.object({
  machine_id: z.string(),
  label: z.string(),
  agents: z.string(),
  folders: z.string(),
  seen_at: z.number(),
});

const Advertised = MachineHello.pick({ agents: true, folders: true });

export type Advertisement = Omit<MachineView, "online">;

export class MachineStore {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
  }

  /** What a (re)connected daemon says it allows now replaces what it said before. */
  advertise(machineId: string, hello: MachineHello): void {
    this.sql.exec(
      `INSERT INTO machines (machine_id, label, agents, folders, seen_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (machine_id) DO UPDATE SET label = excluded.label, agents = excluded.agents,
       folders = excluded.folders, seen_at = excluded.seen_at`,
      machineId,
      hello.label,
      JSON.stringify(hello.agents),
      JSON.stringify(hello.folders),
      this.now(),
    );
  }

  list(): Advertisement[] {
    return this.sql
      .exec("SELECT * FROM machines ORDER BY label, machine_id")
      .toArray()
      .map((raw) => {
        const row = MachineRow.parse(raw);
        const advertised = Advertised.parse({
          agents: JSON.parse(row.agents),
          folders: JSON.parse(row.folders),
        });
        return { machineId: row.machine_id, label: row.label, ...advertised, seenAt: row.seen_at };
      });
  }

  get(machineId: string): Advertisement | null {
    return this.list().find((machine) => machine.machineId === machineId) ?? null;
  }

  /** A revoked key's machine leaves the list; its starts stay as the record of what ran. */
  remove(machineId: string): void {
    this.sql.exec("DELETE FROM machines WHERE machine_id = ?", machineId);
  }

  recordStart(start: { sessionId: string; machineId: string; agent: string; folder: string }): void {
    this.sql.exec(
      `INSERT INTO starts (session_id, machine_id, agent, folder, status, reason, at) VALUES (?, ?, ?, ?, 'asked', NULL, ?)`,
      start.sessionId,
      start.machineId,
      start.agent,
      start.folder,
      this.now(),
    );
  }

  setStatus(sessionId: string, status: StartStatus, reason: string | null = null): void {
    this.sql.exec(
      "UPDATE starts SET status = ?, reason = ?, at = ? WHERE session_id = ?",
      status,
      reason,
      this.now(),
      sessionId,
    );
  }

  /** The machine a session was started on, and where that start stands; null for any other session. */
  startOf(sessionId: string): { machineId: string; status: StartStatus } | null {
    const row = this.sql
      .exec("SELECT machine_id, status FROM starts WHERE session_id = ?", sessionId)
      .toArray()[0];
    if (!row) return null;
    return { machineId: z.string().parse(row.machine_id), status: StartStatus.parse(row.status) };
  }
}

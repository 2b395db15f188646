// Reads kept until their tables change: the alarm's deadline sources are asked on every re-arm, so
// a kept read must never outlive a change to what it read.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Kept, SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";

/** A counter over a fresh object's SQLite with two tables, and a kept MIN over the first. */
function withTables(test: (sql: SqlCounter, earliest: Kept<number | null>, reads: () => number) => void) {
  return runInDurableObject(env.SESSIONS.get(env.SESSIONS.newUniqueId()), (_object, state) => {
    state.storage.sql.exec(`CREATE TABLE due (at INTEGER)`);
    state.storage.sql.exec(`CREATE TABLE other (x INTEGER)`);
    const sql = new SqlCounter(state.storage.sql);
    let reads = 0;
    const earliest = sql.keptUntilWritten(["due"], () => {
      reads += 1;
      return sql.one<{ at: number | null }>(`SELECT MIN(at) AS at FROM due`)?.at ?? null;
    });
    test(sql, earliest, () => reads);
  });
}

describe("a read kept until its tables are written", () => {
  it("is read once while nothing changes, and again after a write to its table", () =>
    withTables((sql, earliest, reads) => {
      expect([earliest(), earliest(), earliest()]).toEqual([null, null, null]);
      expect(reads()).toBe(1);
      sql.run(`INSERT INTO due (at) VALUES (?)`, 50);
      expect(earliest()).toBe(50);
      sql.run(`UPDATE due SET at = ?`, 20);
      expect(earliest()).toBe(20);
      sql.run(`DELETE FROM due`);
      expect(earliest()).toBeNull();
      expect(reads()).toBe(4);
    }));

  it("is kept through writes to other tables and writes that change no rows", () =>
    withTables((sql, earliest, reads) => {
      sql.run(`INSERT INTO due (at) VALUES (?)`, 50);
      expect(earliest()).toBe(50);
      sql.run(`INSERT INTO other (x) VALUES (1)`);
      sql.run(`UPDATE due SET at = 10 WHERE at > 1000`);
      sql.run(`DELETE FROM due WHERE at IS NULL`);
      expect(earliest()).toBe(50);
      expect(reads()).toBe(1);
    }));

  it("is read again after a write whose table it cannot name, and after rows changed behind it", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(`WITH v(at) AS (VALUES (30)) INSERT INTO due SELECT at FROM v`);
      expect(earliest()).toBe(30);
      // A rolled-back transaction, or a test's own SQL, changes rows this class never saw written.
      sql.all(`SELECT 1`);
      expect(reads()).toBe(2);
      sql.invalidate();
      expect(earliest()).toBe(30);
      expect(reads()).toBe(3);
    }));
});

describe("a kept read brought up to date by its own writer", () => {
  it("takes the writer's change instead of a read, and costs no statement", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(`INSERT INTO due (at) VALUES (?)`, 40);
      earliest.patch((at) => (at === null ? 40 : Math.min(at, 40)));
      const statements = sql.statements;
      expect(earliest()).toBe(40);
      expect(sql.statements).toBe(statements);
      expect(reads()).toBe(1);
    }));

  it("is read afresh when another write changed its table first, whatever the writer says", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(`INSERT INTO due (at) VALUES (?)`, 10);
      sql.run(`INSERT INTO due (at) VALUES (?)`, 40);
      // Only the second write is the writer's: patching from null would hide the first.
      earliest.patch((at) => (at === null ? 40 : Math.min(at, 40)));
      expect(earliest()).toBe(10);
      expect(reads()).toBe(2);
    }));

  it("is read afresh when a write to another table came after the writer's", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(`INSERT INTO due (at) VALUES (?)`, 40);
      sql.run(`INSERT INTO other (x) VALUES (1)`);
      earliest.patch(() => 999);
      expect(earliest()).toBe(40);
      expect(reads()).toBe(2);
    }));

  it("is read afresh after rows changed behind the counter", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(`INSERT INTO due (at) VALUES (?)`, 40);
      sql.invalidate();
      earliest.patch(() => 999);
      expect(earliest()).toBe(40);
      expect(reads()).toBe(2);
    }));
});

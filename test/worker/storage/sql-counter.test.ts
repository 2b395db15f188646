// Reads kept until their tables change: the alarm's deadline sources are asked on every re-arm, so
// a kept read must never outlive a change to what it read.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Kept, SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";

/** A counter over a fresh object's SQLite with two tables, and a kept MIN over the first. */
function withTables(
  test: (
    sql: SqlCounter,
    earliest: Kept<number | null>,
    reads: () => number,
    raw: SqlStorage,
  ) => void | Promise<void>,
) {
  return runInDurableObject(env.SESSIONS.get(env.SESSIONS.newUniqueId()), (_object, state) => {
    state.storage.sql.exec(`CREATE TABLE due (at INTEGER)`);
    state.storage.sql.exec(`CREATE TABLE other (x INTEGER)`);
    const sql = new SqlCounter(state.storage.sql);
    let reads = 0;
    const earliest = sql.keptUntilWritten(["due"], () => {
      reads += 1;
      return sql.one<{ at: number | null }>(`SELECT MIN(at) AS at FROM due`)?.at ?? null;
    });
    return test(sql, earliest, () => reads, state.storage.sql);
  });
}

describe("a read kept until its tables are written", () => {
  it("is read once while nothing changes, and again after a write to its table", () =>
    withTables((sql, earliest, reads) => {
      expect([earliest(), earliest(), earliest()]).toEqual([null, null, null]);
      expect(reads()).toBe(1);
      sql.run(["due"], `INSERT INTO due (at) VALUES (?)`, 50);
      expect(earliest()).toBe(50);
      sql.run(["due"], `UPDATE due SET at = ?`, 20);
      expect(earliest()).toBe(20);
      sql.run(["due"], `DELETE FROM due`);
      expect(earliest()).toBeNull();
      expect(reads()).toBe(4);
    }));

  it("is kept through writes to other tables and writes that change no rows", () =>
    withTables((sql, earliest, reads) => {
      sql.run(["due"], `INSERT INTO due (at) VALUES (?)`, 50);
      expect(earliest()).toBe(50);
      sql.run(["other"], `INSERT INTO other (x) VALUES (1)`);
      sql.run(["due"], `UPDATE due SET at = 10 WHERE at > 1000`);
      sql.run(["due"], `DELETE FROM due WHERE at IS NULL`);
      expect(earliest()).toBe(50);
      expect(reads()).toBe(1);
    }));

  it("is read again after a read statement that wrote rows, and after rows changed behind it", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      // A statement run as a read declares no tables: if it wrote rows, every table counts as changed.
      sql.all(`WITH v(at) AS (VALUES (30)) INSERT INTO due SELECT at FROM v`);
      expect(earliest()).toBe(30);
      sql.all(`SELECT 1`);
      expect(reads()).toBe(2);
      // A rolled-back transaction, or a test's own SQL, changes rows this class never saw written.
      sql.invalidate();
      expect(earliest()).toBe(30);
      expect(reads()).toBe(3);
    }));

  it("is kept through a write that declares other tables, whatever its text names", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      // The declaration is what counts: no statement text is parsed.
      sql.run(["due"], `UPDATE OR REPLACE other SET x = 2`);
      sql.run(["other"], `INSERT INTO other (x) VALUES (1)`);
      expect(earliest()).toBeNull();
      expect(reads()).toBe(1);
      sql.run(["due"], `INSERT OR REPLACE INTO main.due (at) VALUES (7)`);
      expect(earliest()).toBe(7);
    }));
});

describe("a kept read brought up to date by its own writer", () => {
  it("takes the writer's change instead of a read, and costs no statement", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(["due"], `INSERT INTO due (at) VALUES (?)`, 40);
      earliest.patch((at) => (at === null ? 40 : Math.min(at, 40)));
      const statements = sql.statements;
      expect(earliest()).toBe(40);
      expect(sql.statements).toBe(statements);
      expect(reads()).toBe(1);
    }));

  it("is read afresh when another write changed its table first, whatever the writer says", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(["due"], `INSERT INTO due (at) VALUES (?)`, 10);
      sql.run(["due"], `INSERT INTO due (at) VALUES (?)`, 40);
      // Only the second write is the writer's: patching from null would hide the first.
      earliest.patch((at) => (at === null ? 40 : Math.min(at, 40)));
      expect(earliest()).toBe(10);
      expect(reads()).toBe(2);
    }));

  it("is read afresh when a write to another table came after the writer's", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(["due"], `INSERT INTO due (at) VALUES (?)`, 40);
      sql.run(["other"], `INSERT INTO other (x) VALUES (1)`);
      earliest.patch(() => 999);
      expect(earliest()).toBe(40);
      expect(reads()).toBe(2);
    }));

  it("is read afresh after rows changed behind the counter", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      sql.run(["due"], `INSERT INTO due (at) VALUES (?)`, 40);
      sql.invalidate();
      earliest.patch(() => 999);
      expect(earliest()).toBe(40);
      expect(reads()).toBe(2);
    }));
});

describe("a writer's patch", () => {
  it("is not taken when the write changed no rows", () =>
    withTables((sql, earliest, reads) => {
      expect(earliest()).toBeNull();
      expect(sql.run(["due"], `UPDATE due SET at = 5 WHERE at > 1000`)).toBe(0);
      earliest.patch(() => 5);
      expect(earliest()).toBeNull();
      expect(reads()).toBe(1);
    }));
});

describe("the kept copies of an object", () => {
  it("are all dropped by forgetCopies, and all compared with storage by shadow reads", () =>
    withTables(async (sql, earliest, _reads, raw) => {
      let forgotten = 0;
      sql.keep({
        forget: () => {
          forgotten += 1;
        },
        differences: () => [],
      });
      const perKey = sql.keptPerKey(
        ["other"],
        (x: number) => sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM other WHERE x = ?`, x)?.n ?? 0,
      );
      sql.run(["other"], `INSERT INTO other (x) VALUES (1)`);
      expect(perKey(1)).toBe(1);
      expect(earliest()).toBeNull();
      expect(await sql.differences()).toEqual([]);

      // Rows changed behind the counter: a kept value no longer matches, and shadow reads say so.
      const statements = sql.statements;
      raw.exec(`INSERT INTO due (at) VALUES (3)`);
      expect(await sql.differences()).toEqual([
        expect.stringMatching(/kept read of due: kept null, storage has 3/),
      ]);
      expect(sql.statements).toBe(statements);

      sql.forgetCopies();
      expect(forgotten).toBe(1);
      expect(earliest()).toBe(3);
      expect(perKey(1)).toBe(1);
      expect(await sql.differences()).toEqual([]);
    }));
});

import { beforeAll, describe, expect, it } from "vitest";
import { assessCall } from "../../../src/assessment/assess-call";
import { Assessment } from "../../../src/assessment/assessment";
import { loadShellReader } from "../../../src/grants/shell-reader";
import { CALL_TABLE } from "./call-table";

beforeAll(() => loadShellReader());

describe("Parley's assessment of a call", () => {
  it("is judged on a table of at least 100 calls of every kind", () => {
    expect(CALL_TABLE.length).toBeGreaterThanOrEqual(100);
    const tools = new Set(CALL_TABLE.map(([, row]) => (row.call.mcp ? "mcp" : row.call.toolName)));
    for (const kind of ["Bash", "Read", "Write", "WebFetch", "fetch_url", "mcp"])
      expect(tools).toContain(kind);
  });

  it.each(CALL_TABLE)("rates %s as the table says", (_name, { call, level, kinds, says }) => {
    const assessment = assessCall(call);
    const seen = assessment.effects.map((effect) => `${effect.kind}: ${effect.detail}`).join("\n");
    expect(assessment.level, seen).toBe(level);
    for (const kind of kinds)
      expect(
        assessment.effects.map((effect) => effect.kind),
        seen,
      ).toContain(kind);
    if (says) expect(seen).toContain(says);
    expect(Assessment.safeParse(assessment).success).toBe(true);
  });

  it("puts the riskiest effect first in its summary", () => {
    const assessment = assessCall({ toolName: "Bash", input: { command: "ls && rm -rf /" }, cwd: "/w" });
    expect(assessment.level).toBe("high");
    expect(assessment.summary).toMatch(/^Deletes everything under \//);
    expect(assessment.effects[0]?.kind).toBe("delete");
  });

  it("stays within its schema's limits however long the paths and hosts the call names", () => {
    const long = `dir/${"x".repeat(5_000)}`;
    const command = `rm -rf ${long} /a/${long} /b/${long}; curl https://${"h".repeat(60)}.example.com/${long}`;
    const assessment = assessCall({ toolName: "Bash", input: { command }, cwd: "/w" });
    expect(Assessment.safeParse(assessment).success).toBe(true);
    expect(assessment.level).toBe("high");
    expect(assessment.summary.endsWith("…")).toBe(true);
  });

  it("names at most three effects in its summary and says how many more there are", () => {
    const command = "rm a; rm b; rm c; rm d; rm e";
    const assessment = assessCall({ toolName: "Bash", input: { command }, cwd: "/w" });
    expect(assessment.summary).toMatch(/; and 2 more$/);
    expect(assessment.effects).toHaveLength(5);
  });
});

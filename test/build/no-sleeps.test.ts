// The check that keeps real-time sleeps out of the unit and worker tests.
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without types
import { findSleeps } from "../../scripts/check-no-sleeps.mjs";

const find = (text: string): string[] => findSleeps("test/worker/x.test.ts", text);

describe("the no-sleep check", () => {
  it("finds a promise that a timer resolves, sleep() and scheduler.wait()", () => {
    expect(find("await new Promise((resolve) => setTimeout(resolve, 700));")).toHaveLength(1);
    expect(find("await new Promise((r) => setTimeout(r, ms));")).toHaveLength(1);
    expect(find("await sleep(50);")).toHaveLength(1);
    expect(find("await scheduler.wait(10);")).toHaveLength(1);
    expect(find('import { setTimeout as wait } from "node:timers/promises";')).toHaveLength(1);
  });

  it("names the file and line of each one", () => {
    expect(find("const a = 1;\nawait sleep(5);")).toEqual([
      "test/worker/x.test.ts:2: sleep(): await sleep(5);",
    ]);
  });

  it("lets a zero-delay yield, a timeout that rejects, and an allowed line through", () => {
    expect(find("await new Promise((resolve) => setTimeout(resolve, 0));")).toEqual([]);
    expect(find("const timer = setTimeout(() => reject(new Error('late')), 5_000);")).toEqual([]);
    expect(
      find(
        "// sleep-check: allow — the fake server's own pacing\nawait new Promise((r) => setTimeout(r, pace));",
      ),
    ).toEqual([]);
  });
});

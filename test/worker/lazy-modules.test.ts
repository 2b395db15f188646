// A module the Worker loads on first use is evaluated for the first time by the first request
// after a deploy that needs it; here every one of them is evaluated in the runtime, so one that
// fails to load fails CI instead.
import { describe, expect, it } from "vitest";
import { LAZY_MODULES } from "../helpers/lazy-modules";

describe("every module the Worker loads on first use", () => {
  for (const [name, load] of Object.entries(LAZY_MODULES)) {
    // The first import of a large module is transformed for the test runner on the way: slow on a busy machine.
    it(`loads and evaluates ${name}`, { timeout: 60_000 }, async () => {
      const loaded = await load();
      expect(Object.keys(loaded).length).toBeGreaterThan(0);
    });
  }
});

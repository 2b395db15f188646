// Setup of every Workers project (vitest.config.ts turns shadow reads on in each runtime): every
// object compares its kept copies of stored rows with storage after each input
// (src/storage/shadow-reads.ts), and a test after which one differed fails, naming the copy and both values.
import { afterEach, expect } from "vitest";
import { shadowDifferences } from "../../src/storage/shadow-reads";

afterEach(() => {
  const found = shadowDifferences.splice(0);
  expect(found, "kept copies of stored rows that differ from storage").toEqual([]);
});

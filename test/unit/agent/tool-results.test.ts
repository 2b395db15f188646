import { describe, expect, it } from "vitest";
import { fitBatch, MAX_RESULT_BATCH_BYTES } from "../../../src/agent/tool-results";

const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

describe("fitting a batch of tool results into one stored message", () => {
  it("leaves a batch that fits untouched", () => {
    const contents = ["short", "x".repeat(200_000)];
    expect(fitBatch(contents)).toEqual(contents);
  });

  it("keeps small results whole and shares the rest of the budget among the large ones, saying so", () => {
    const small = "the time is noon";
    const large = "é".repeat(400_000); // 800 000 bytes of UTF-8 each
    const fitted = fitBatch([large, small, large, large]);
    expect(fitted[1]).toBe(small);
    const total = fitted.reduce((sum, text) => sum + bytes(text), 0);
    expect(total).toBeLessThanOrEqual(MAX_RESULT_BATCH_BYTES);
    for (const index of [0, 2, 3]) {
      expect(fitted[index]).toMatch(
        /\[output shortened to \d+ of 800000 bytes so this batch of 4 results fits\]$/,
      );
      expect(fitted[index]?.startsWith("éé")).toBe(true);
      expect(fitted[index]).not.toContain("\uFFFD");
    }
  });
});

import { describe, expect, it } from "vitest";
import {
  fitBatch,
  MAX_BATCH_IMAGE_BYTES,
  MAX_RESULT_BATCH_BYTES,
  resultBlocks,
} from "../../../src/agent/tool-results";

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

describe("images in a batch of tool results", () => {
  const image = (chars: number) => ({ mediaType: "image/png" as const, data: "A".repeat(chars) });
  const results = new Map([
    [
      "toolu_a",
      {
        toolCallId: "toolu_a",
        name: "a",
        content: "first",
        isError: false,
        truncated: false,
        images: [image(400_000)],
      },
    ],
    [
      "toolu_b",
      {
        toolCallId: "toolu_b",
        name: "b",
        content: "second",
        isError: false,
        truncated: false,
        images: [image(300_000)],
      },
    ],
    ["toolu_c", { toolCallId: "toolu_c", name: "c", content: "plain", isError: false, truncated: false }],
  ]);
  const deps = { results: { get: (id: string) => results.get(id) ?? null } } as unknown as Parameters<
    typeof resultBlocks
  >[0];
  const use = (id: string) => ({ type: "tool_use" as const, id, name: id, input: {} });

  it("follow the text of their result, until the batch carries as many as a stored message may", () => {
    const blocks = resultBlocks(deps, [use("toolu_a"), use("toolu_b"), use("toolu_c")]);
    expect(MAX_BATCH_IMAGE_BYTES).toBeLessThan(700_000);
    expect(blocks?.[0]?.content).toEqual([
      { type: "text", text: "first" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "A".repeat(400_000) } },
    ]);
    expect(blocks?.[1]?.content).toEqual([
      { type: "text", text: "second\n[1 image(s) left out: the results of this step carry too many images]" },
    ]);
    expect(blocks?.[2]?.content).toBe("plain");
  });
});

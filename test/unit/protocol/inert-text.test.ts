import { describe, expect, it } from "vitest";
import { inert } from "../../../src/protocol/text/inert-text";

describe("text made inert for every device", () => {
  it("spells out ESC, BEL and the other C0 controls, keeping newline and tab", () => {
    expect(inert("a\u001b[2Jb")).toBe("a\\x1b[2Jb");
    expect(inert("\u001b]52;c;aGk=\u0007")).toBe("\\x1b]52;c;aGk=\\x07");
    expect(inert("line\r\n\tindented\u0000")).toBe("line\\x0d\n\tindented\\x00");
  });

  it("spells out DEL and the C1 controls, which some terminals obey like ESC sequences", () => {
    expect(inert("\u009b31mred\u007f")).toBe("\\x9b31mred\\x7f");
    expect(inert("\u009d8;;https://x\u009c")).toBe("\\x9d8;;https://x\\x9c");
  });

  it("leaves ordinary text alone, other languages and emoji included", () => {
    const text = "Grüße — 你好 🙂 “quoted” ‹›";
    expect(inert(text)).toBe(text);
  });
});

describe("bidi controls and invisible characters in terminal text", () => {
  it("spells out bidi overrides, embeddings, isolates and marks, so text reads in the order it is stored", () => {
    // "Trojan Source": an override makes `rm -rf ~ # safe` display as something else.
    expect(inert("ls \u202e~ fr- mr\u202c")).toBe("ls \\u202e~ fr- mr\\u202c");
    expect(inert("a\u2066b\u2069c\u200fd\u061c")).toBe("a\\u2066b\\u2069c\\u200fd\\u061c");
  });

  it("spells out zero-width characters hidden inside words", () => {
    expect(inert("rm\u200b -rf")).toBe("rm\\u200b -rf");
    expect(inert("\ufeffapprove\u2060")).toBe("\\ufeffapprove\\u2060");
    expect(inert("a\u200dz")).toBe("a\\u200dz");
  });

  it("keeps a joiner that draws one emoji out of two", () => {
    for (const emoji of ["👩‍💻", "❤️‍🔥", "👩🏽‍💻"]) expect(inert(emoji)).toBe(emoji);
  });
});

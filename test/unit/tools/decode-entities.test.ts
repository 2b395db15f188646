import { describe, expect, it } from "vitest";
import { decodeEntities } from "../../../src/tools/decode-entities";

describe("decodeEntities", () => {
  it("decodes numeric, hex and common named entities and leaves unknown ones alone", () => {
    expect(decodeEntities("&#233;t&#xE9; &mdash; 5&nbsp;&euro; &hellip; &#128512; &bogus; &#0;")).toBe(
      "été — 5\u00a0€ … 😀 &bogus; \uFFFD",
    );
  });

  it("accepts named entities in capitals and refuses surrogate and out-of-range code points", () => {
    expect(decodeEntities("&AMP; &#xD800; &#1114112;")).toBe("& \uFFFD \uFFFD");
  });
});

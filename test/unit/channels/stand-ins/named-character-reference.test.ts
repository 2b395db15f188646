// The Worker's Markdown parser reads named character references from the `entities` table
// (wrangler.toml's [alias] for `decode-named-character-reference`); it must answer for every name
// exactly as the package it stands in for, whose table (`character-entities`) is the reference here.
import { characterEntities } from "character-entities";
import { describe, expect, it } from "vitest";
import { decodeNamedCharacterReference } from "../../../../src/channels/stand-ins/named-character-reference";

describe("the Markdown parser's named character references", () => {
  it("decode every name of the HTML standard's table to the characters it names", () => {
    const names = Object.keys(characterEntities);
    expect(names.length).toBeGreaterThan(2000);
    const differing = names.filter((name) => decodeNamedCharacterReference(name) !== characterEntities[name]);
    expect(differing).toEqual([]);
  });

  it("refuse a name the table lacks, also one that starts with a real name or differs only in case", () => {
    for (const name of ["notit", "ampx", "AMp", "copyright", "Amp", "zzz", "nbsp2"]) {
      expect(Object.hasOwn(characterEntities, name)).toBe(false);
      expect(decodeNamedCharacterReference(name)).toBe(false);
    }
  });

  it("refuse what is no name: empty, punctuation, a `;` or `&` inside, or an object's own keys", () => {
    for (const value of [
      "",
      ";",
      "amp;",
      "amp;lt",
      "&amp",
      "#38",
      "#x26",
      "__proto__",
      "constructor",
      "toString",
    ]) {
      expect(decodeNamedCharacterReference(value)).toBe(false);
    }
  });

  it("refuse a name longer than any reference, as micromark never collects one", () => {
    expect(decodeNamedCharacterReference(`amp${"a".repeat(40)}`)).toBe(false);
  });
});

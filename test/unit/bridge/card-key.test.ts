import { describe, expect, it } from "vitest";
import { cardKey, externalKey } from "../../../src/bridge/card-key";
import { ExternalKey } from "../../../src/protocol/external/external";

describe("a bridge's keys", () => {
  it("keeps an agent's id as it is when it already is a key", () => {
    expect(cardKey("toolu_01ABC")).toBe("toolu_01ABC");
    expect(externalKey("3f2b6c1e-session")).toBe("3f2b6c1e-session");
  });

  it("turns spaces and non-ASCII into underscores and cuts at 200 characters, so Parley accepts every key", () => {
    for (const id of ["call 1", "añadir", "x".repeat(500), "\n", "tool\u0000call"]) {
      const key = externalKey(id);
      expect(ExternalKey.safeParse(key).success, key).toBe(true);
    }
    expect(externalKey("call 1.7")).toBe("call_1.7");
    expect(externalKey("")).toBe("_");
  });

  it("gives a call without an id a key of its own, different each time", () => {
    const first = cardKey(undefined);
    expect(first).toMatch(/^ask-[0-9a-f-]{36}$/);
    expect(cardKey(undefined)).not.toBe(first);
    expect(cardKey("")).toMatch(/^ask-/);
  });
});

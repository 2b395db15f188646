import { describe, expect, it } from "vitest";
import { CARD_SETTLE_MS, tooSoonForCard } from "../../../web/src/ui/cards/card-keys";

describe("keys that could answer a new card", () => {
  it("ignores Enter, Space and digits in the card's first second", () => {
    for (const key of ["Enter", " ", "1", "9", "0"]) {
      expect(tooSoonForCard(key, 0, false)).toBe(true);
      expect(tooSoonForCard(key, CARD_SETTLE_MS - 1, false)).toBe(true);
    }
  });

  it("lets them count from one second on", () => {
    for (const key of ["Enter", " ", "1"]) expect(tooSoonForCard(key, CARD_SETTLE_MS, false)).toBe(false);
  });

  it("lets digits be typed into a card's text field at once, but not Enter, which would submit", () => {
    expect(tooSoonForCard("7", 10, true)).toBe(false);
    expect(tooSoonForCard("Enter", 10, true)).toBe(true);
  });

  it("never holds back keys that cannot answer a card", () => {
    for (const key of ["Escape", "Tab", "a", "ArrowDown"]) expect(tooSoonForCard(key, 0, false)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { ElicitRequestFormParams } from "../../../src/protocol/forms/elicitation";

const formWith = (key: string) => ({
  message: "Details",
  requestedSchema: { type: "object", properties: { [key]: { type: "string", title: "Name" } } },
});

describe("a form's field names", () => {
  it("may hold letters, digits, '_', '.' and '-', up to 64 of them", () => {
    for (const key of ["name", "first_name", "seat.row", "x-1", "A".repeat(64)]) {
      expect(ElicitRequestFormParams.safeParse(formWith(key)).success, key).toBe(true);
    }
  });

  it("refuses spaces, punctuation, controls, look-alikes and names over 64 characters", () => {
    for (const key of ["bad key!", "a\u001b[2J", "na\u200bme", "nаme", "a/b", 'a"b', "A".repeat(65)]) {
      const parsed = ElicitRequestFormParams.safeParse(formWith(key));
      expect(parsed.success, JSON.stringify(key)).toBe(false);
    }
  });
});

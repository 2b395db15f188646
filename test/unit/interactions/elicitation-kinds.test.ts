import { describe, expect, it } from "vitest";
import { elicitationKind, elicitResultOf } from "../../../src/interactions/elicitation-kinds";

describe("elicitations and their kinds", () => {
  it("shows a request without a mode, or in form mode, as a form, and a URL request as a page to visit", () => {
    const schema = { type: "object" as const, properties: {} };
    expect(elicitationKind({ message: "m", requestedSchema: schema })).toBe("form");
    expect(elicitationKind({ mode: "form", message: "m", requestedSchema: schema })).toBe("form");
    expect(elicitationKind({ mode: "url", message: "m", url: "https://example.com/" })).toBe("url");
  });

  it("gives a tool the person's ElicitResult, or cancel when the card lapsed or the turn ended", () => {
    expect(elicitResultOf("answered", { action: "accept", content: { a: 1 } })).toEqual({
      action: "accept",
      content: { a: 1 },
    });
    expect(elicitResultOf("denied", { action: "decline" })).toEqual({ action: "decline" });
    expect(elicitResultOf("timed_out", null)).toEqual({ action: "cancel" });
    expect(elicitResultOf("cancelled", null)).toEqual({ action: "cancel" });
    expect(elicitResultOf("pending", null)).toBeNull();
  });

  it("gives an accepted URL request back with no values, since they stay on the server's page", () => {
    expect(elicitResultOf("answered", { action: "accept" })).toEqual({ action: "accept", content: {} });
    expect(elicitResultOf("cancelled", { action: "cancel" })).toEqual({ action: "cancel" });
  });
});

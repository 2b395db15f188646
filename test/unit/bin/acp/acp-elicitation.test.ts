// An ACP elicitation as a Parley card, and a resolved card as the ACP answer: a form is shown whole
// or not at all, and only a person's answer carries values back.
import { describe, expect, it } from "vitest";
import { answerForCard, cardForElicitation, elicitationMode } from "../../../../bin/acp/acp-elicitation";
import type { ExternalInteraction } from "../../../../client/client";

const FORM = {
  sessionId: "s1",
  mode: "form",
  message: "Where should the report go?",
  requestedSchema: {
    properties: {
      recipient: { type: "string", title: "Recipient", description: null, minLength: 1, _meta: { x: 1 } },
      copies: { type: "integer", minimum: 1, maximum: 5 },
    },
    required: ["recipient"],
  },
};

function resolved(response: unknown, outcome = "answered"): ExternalInteraction {
  return {
    interactionId: "i1",
    kind: "form",
    key: "k",
    status: "resolved",
    request: {},
    createdAt: 0,
    expiresAt: 1,
    resolution: { outcome: outcome as "answered", response, by: "phone", at: 1 },
  };
}

describe("an ACP elicitation as a card", () => {
  it("is Parley's form, with ACP's null fields and _meta left out and the schema's object type filled in", () => {
    expect(cardForElicitation(FORM)).toEqual({
      ok: true,
      kind: "form",
      request: {
        mode: "form",
        message: "Where should the report go?",
        requestedSchema: {
          type: "object",
          properties: {
            recipient: { type: "string", title: "Recipient", minLength: 1 },
            copies: { type: "integer", minimum: 1, maximum: 5 },
          },
          required: ["recipient"],
        },
      },
    });
  });

  it("is Parley's page card for a URL request, and refuses an address that is not http or https", () => {
    const url = {
      sessionId: "s1",
      mode: "url",
      elicitationId: "e1",
      url: "https://example.com/sign-in",
      message: "Sign in",
    };
    expect(cardForElicitation(url)).toEqual({
      ok: true,
      kind: "url",
      request: { mode: "url", message: "Sign in", url: "https://example.com/sign-in", elicitationId: "e1" },
    });
    const script = cardForElicitation({ ...url, url: "javascript:alert(1)" });
    expect(script).toMatchObject({ ok: false, message: expect.stringContaining("http or https") });
  });

  it("is refused whole, with the reason, when a field carries what Parley cannot check", () => {
    const pattern = {
      ...FORM,
      requestedSchema: { properties: { code: { type: "string", pattern: "^[a-z]+$" } } },
    };
    expect(cardForElicitation(pattern)).toEqual({
      ok: false,
      message: expect.stringMatching(/^a form Parley cannot show: .*"pattern" not supported/),
    });
  });

  it("names no mode for one ACP does not define, or a form without its schema", () => {
    expect(elicitationMode({ sessionId: "s1", mode: "_custom", message: "m" })).toBe(null);
    expect(elicitationMode({ sessionId: "s1", mode: "form", message: "m" })).toBe(null);
    expect(cardForElicitation({ sessionId: "s1", mode: "_custom", message: "m" }).ok).toBe(false);
  });
});

describe("a resolved elicitation card as the ACP answer", () => {
  it("carries the person's values, decline or dismissal", () => {
    const values = { action: "accept", content: { recipient: "ops", copies: 2 } };
    expect(answerForCard("form", resolved(values))).toEqual(values);
    expect(answerForCard("form", resolved({ action: "decline" }, "denied"))).toEqual({ action: "decline" });
    expect(answerForCard("url", resolved({ action: "accept" }))).toEqual({ action: "accept" });
  });

  it("is cancel when no person answered: a deadline or a withdrawal", () => {
    expect(answerForCard("form", resolved(null, "timed_out"))).toEqual({ action: "cancel" });
    expect(answerForCard("url", resolved(null, "withdrawn"))).toEqual({ action: "cancel" });
  });
});

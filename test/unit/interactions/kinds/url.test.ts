import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);
const SIGN_IN = {
  mode: "url",
  message: "Sign in to the tracker",
  url: "https://auth.example.com/signin?s=1",
};

function refusal(request: unknown): string {
  const opened = registry.open("url", request);
  if (opened.ok) throw new Error("expected the request to be refused");
  return opened.message;
}

describe("the url kind (MCP elicitation in URL mode)", () => {
  it("opens for an http or https page, keeping the address exactly as sent", () => {
    expect(registry.open("url", SIGN_IN)).toEqual({ ok: true, request: SIGN_IN });
    const local = { ...SIGN_IN, url: "http://127.0.0.1:3000/pay", elicitationId: "e-1" };
    expect(registry.open("url", local)).toEqual({ ok: true, request: local });
  });

  it("refuses addresses a card must never link to, and requests without a message", () => {
    for (const url of [
      "javascript:alert(1)",
      "data:text/html,<b>hi</b>",
      "file:///etc/passwd",
      "not a url",
    ]) {
      expect(refusal({ ...SIGN_IN, url })).toMatch(/^url: url must be an http or https address/);
    }
    expect(refusal({ ...SIGN_IN, url: `https://example.com/${"a".repeat(2_100)}` })).toMatch(
      /url must be at most 2048 characters/,
    );
    expect(refusal({ ...SIGN_IN, message: "  " })).toMatch(/message must not be empty/);
    expect(refusal({ message: "m", url: "https://example.com/" })).toMatch(/^mode:/);
  });

  it("is never offered to the model as a tool", () => {
    expect(registry.toolSpecs().map((tool) => tool.name)).toEqual([
      "AskUserQuestion",
      "RequestUserInput",
      "ExitPlanMode",
    ]);
    expect(JSON.stringify(registry.toolSpecs())).not.toMatch(/elicitationId/);
    expect(registry.byToolName("url")).toBeUndefined();
  });

  it("is accepted without values, declined or dismissed, and says so to the tool", () => {
    expect(registry.respond("url", SIGN_IN, { action: "accept" })).toMatchObject({
      ok: true,
      outcome: "answered",
      result: {
        content: "User opened https://auth.example.com/signin?s=1 and said they finished there.",
        isError: false,
      },
    });
    expect(registry.respond("url", SIGN_IN, { action: "decline" })).toMatchObject({
      ok: true,
      outcome: "denied",
    });
    expect(registry.respond("url", SIGN_IN, { action: "cancel" })).toMatchObject({
      ok: true,
      outcome: "cancelled",
    });
    expect(registry.timeout("url", SIGN_IN, { timeoutMs: 600_000 }).content).toBe(
      "User did not confirm visiting https://auth.example.com/signin?s=1 within 10 minutes",
    );
  });

  it("refuses values sent with an accept, and actions it does not know", () => {
    const accepted = registry.respond("url", SIGN_IN, { action: "accept", content: { password: "x" } });
    expect(accepted).toMatchObject({ ok: false });
    expect(JSON.stringify(accepted)).toMatch(/accepted without content/);
    expect(registry.respond("url", SIGN_IN, { action: "open" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/action must be "accept", "decline" or "cancel"/),
    });
  });
});

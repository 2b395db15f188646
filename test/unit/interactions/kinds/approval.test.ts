import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";
import { MAX_TEXT_FIELD_CHARS } from "../../../../src/protocol/limits";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);

function openApproval(): unknown {
  const opened = registry.open("approval", {
    toolName: "fetch_url",
    input: { url: "https://example.com" },
    risk: "network",
    description: "Fetch https://example.com",
  });
  if (!opened.ok) throw new Error(opened.message);
  return opened.request;
}

function decide(raw: unknown) {
  return registry.respond("approval", openApproval(), raw);
}

describe("the approval kind", () => {
  it("is not offered to the model as a tool of its own", () => {
    expect(registry.get("approval")?.toolName).toBeUndefined();
    expect(registry.toolSpecs().map((spec) => spec.name)).toEqual([
      "AskUserQuestion",
      "RequestUserInput",
      "ExitPlanMode",
    ]);
  });

  it("lets the tool run once approved, without a result of its own", () => {
    expect(decide({ decision: "approve" })).toEqual({
      ok: true,
      response: { decision: "approve", remember: false },
      outcome: "approved",
      result: null,
      remember: false,
    });
  });

  it("reports an approval that asks to always allow the tool for this session", () => {
    expect(decide({ decision: "approve", remember: true })).toMatchObject({
      ok: true,
      response: { decision: "approve", remember: true },
      remember: true,
    });
  });

  it("tells the model the user denied the tool", () => {
    expect(decide({ decision: "deny" })).toEqual({
      ok: true,
      response: { decision: "deny", reason: null },
      outcome: "denied",
      result: { content: "User denied tool execution", isError: true },
      remember: false,
    });
  });

  it("passes the user's reason for denying on to the model, trimmed", () => {
    expect(decide({ decision: "deny", reason: "  use the staging URL instead " })).toMatchObject({
      response: { decision: "deny", reason: "use the staging URL instead" },
      result: { content: "User denied tool execution. Reason: use the staging URL instead", isError: true },
    });
  });

  it("treats a blank reason as no reason", () => {
    expect(decide({ decision: "deny", reason: "   " })).toMatchObject({
      response: { decision: "deny", reason: null },
      result: { content: "User denied tool execution", isError: true },
    });
  });

  it("rejects an overlong reason", () => {
    const result = decide({ decision: "deny", reason: "x".repeat(MAX_TEXT_FIELD_CHARS + 1) });
    expect(result).toEqual({
      ok: false,
      message: `reason: reason must be at most ${MAX_TEXT_FIELD_CHARS} characters`,
    });
  });

  it("rejects anything but approve or deny", () => {
    for (const raw of [{ decision: "maybe" }, {}, { decision: true }]) {
      expect(decide(raw)).toEqual({ ok: false, message: 'decision: must be "approve" or "deny"' });
    }
    for (const raw of [null, "approve", ["approve"]]) {
      expect(decide(raw)).toEqual({
        ok: false,
        message:
          'Expected { decision: "approve", remember?, updatedInput? } or { decision: "deny", reason?, stop? }',
      });
    }
  });

  it("rejects fields that belong to the other decision", () => {
    const result = decide({ decision: "approve", reason: "fine" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain("reason");
  });

  it("says how long the approval waited when it times out", () => {
    const request = openApproval();
    expect(registry.timeout("approval", request, { timeoutMs: 600_000 })).toEqual({
      content: "Tool approval timed out after 10 minutes",
      isError: true,
    });
    expect(registry.timeout("approval", request, { timeoutMs: 2_000 }).content).toBe(
      "Tool approval timed out after 2 seconds",
    );
  });

  it("tells the model the tool was not run when the turn is cancelled", () => {
    expect(registry.cancelled("approval", openApproval())).toEqual({
      content: "User cancelled the turn before approving fetch_url; the tool was not run",
      isError: true,
    });
  });

  it("refuses a request with an unknown risk class", () => {
    const opened = registry.open("approval", { toolName: "x", input: {}, risk: "dangerous" });
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.message).toMatch(/^risk: /);
  });
});

import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { MAX_PLAN_CHARS } from "../../../../src/interactions/kinds/plan";
import { createInteractionRegistry } from "../../../../src/interactions/registry";
import { MAX_TEXT_FIELD_CHARS } from "../../../../src/protocol/limits";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);
const PLAN = "## Plan\n\n1. Read the file\n2. Edit it";

function openPlan(plan: unknown = PLAN) {
  return registry.open("plan", { plan });
}

function decide(raw: unknown) {
  const opened = openPlan();
  if (!opened.ok) throw new Error(opened.message);
  return registry.respond("plan", opened.request, raw);
}

describe("the plan kind", () => {
  it("is offered to the model as the ExitPlanMode tool taking the plan as markdown", () => {
    const spec = registry.toolSpecs().find((tool) => tool.name === "ExitPlanMode");
    expect(spec?.input_schema).toMatchObject({
      required: ["plan"],
      properties: { plan: { type: "string" } },
    });
    expect(registry.byToolName("ExitPlanMode")?.kind).toBe("plan");
  });

  it("opens only in plan mode, and says why elsewhere", () => {
    expect(registry.refusal("plan", "plan")).toBeNull();
    expect(registry.refusal("plan", "default")).toBe(
      'it is only available in "plan" permission mode, and the session is in "default" mode',
    );
    expect(registry.refusal("question", "default")).toBeNull();
  });

  it("tells the model how to present a plan in plan mode only", () => {
    expect(registry.modeNotes("plan")).toMatch(/^Permission mode: plan\. .*ExitPlanMode/);
    expect(registry.modeNotes("default")).toBe("");
  });

  it("refuses an empty or oversized plan with a message the model can act on", () => {
    expect(openPlan("  ")).toEqual({ ok: false, message: "plan: plan must not be empty" });
    expect(openPlan("x".repeat(MAX_PLAN_CHARS + 1))).toEqual({
      ok: false,
      message: `plan: plan must be at most ${MAX_PLAN_CHARS} characters`,
    });
  });

  it("approving with edits accepted switches the session to acceptEdits", () => {
    expect(decide({ choice: "accept_edits" })).toEqual({
      ok: true,
      response: { choice: "accept_edits" },
      outcome: "approved",
      result: {
        content:
          'User has approved your plan. The permission mode is now "acceptEdits": edits run without asking; other actions still ask. You can now start carrying it out.',
        isError: false,
      },
      remember: false,
      mode: "acceptEdits",
    });
  });

  it("approving to review each action switches the session to default", () => {
    expect(decide({ choice: "review_each" })).toMatchObject({ outcome: "approved", mode: "default" });
  });

  it("keeping planning passes the feedback to the model and leaves the mode alone", () => {
    const result = decide({ choice: "keep_planning", feedback: "  Also update the docs  " });
    expect(result).toEqual({
      ok: true,
      response: { choice: "keep_planning", feedback: "Also update the docs" },
      outcome: "denied",
      result: {
        content:
          'The user wants you to keep planning before anything runs. Their feedback: Also update the docs The session stays in "plan" mode: only read-only tools run. Revise the plan and present it again with ExitPlanMode.',
        isError: true,
      },
      remember: false,
    });
    expect(result).not.toHaveProperty("mode");
  });

  it("refuses a decision that is not one of the three choices", () => {
    for (const raw of ["accept_edits", null, []]) {
      expect(decide(raw)).toEqual({
        ok: false,
        message: 'Expected { choice: "accept_edits" | "review_each" | "keep_planning", feedback? }',
      });
    }
    for (const raw of [{ choice: "approve" }, { decision: "approve" }]) {
      expect(decide(raw)).toEqual({
        ok: false,
        message: 'choice: choice must be one of "accept_edits", "review_each", "keep_planning"',
      });
    }
  });

  it("refuses feedback on an approval, and feedback past the limit", () => {
    expect(decide({ choice: "accept_edits", feedback: "x" })).toEqual({
      ok: false,
      message: 'Unrecognized key: "feedback"',
    });
    expect(decide({ choice: "keep_planning", feedback: "x".repeat(MAX_TEXT_FIELD_CHARS + 1) })).toEqual({
      ok: false,
      message: `feedback: feedback must be at most ${MAX_TEXT_FIELD_CHARS} characters`,
    });
  });

  it("keeps the session planning after a timeout or a cancel", () => {
    const opened = openPlan();
    if (!opened.ok) throw new Error(opened.message);
    expect(registry.timeout("plan", opened.request, { timeoutMs: 600_000 })).toEqual({
      content:
        'The user did not decide on the plan within 10 minutes. The session stays in "plan" mode: only read-only tools run.',
      isError: true,
    });
    expect(registry.cancelled("plan", opened.request).content).toMatch(/stays in "plan" mode/);
  });
});

import { describe, expect, it } from "vitest";
import type { AgentDeps } from "../../../src/agent/agent-deps";
import type { InteractionRecord } from "../../../src/agent/ports";
import { formId, toolElicitation } from "../../../src/agent/tool-elicitation";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";
import type { ElicitRequestFormParams } from "../../../src/protocol/forms/elicitation";
import { ToolPause } from "../../../src/tools/define-tool";

const USE = { type: "tool_use" as const, id: "toolu_1", name: "calendar_add_event", input: {} };
const ASK: ElicitRequestFormParams = {
  message: "Which day?",
  requestedSchema: { type: "object", properties: { day: { type: "string", format: "date" } } },
};

/** Just enough of the loop's host for forms: interactions in a map, events in a list. */
function host(records: InteractionRecord[] = [], maxFormsPerToolCall = 3) {
  const rows = new Map(records.map((record) => [record.id, record]));
  const events: Array<{ type: string; data: unknown }> = [];
  const deps = {
    settings: { maxFormsPerToolCall, interactionTimeoutMs: 1_000 },
    interactions: {
      get: (id: string) => rows.get(id) ?? null,
      create: (r: InteractionRecord) => rows.set(r.id, r),
    },
    kinds: createInteractionRegistry(BUILTIN_INTERACTIONS),
    events: { append: (type: string, data: unknown) => events.push({ type, data }) },
    clock: { now: () => 5 },
    turn: { current: () => null },
    frames: { top: () => null },
    deadlines: { rearm: () => {} },
  } as unknown as AgentDeps;
  return { deps, rows, events };
}

function answered(
  k: number,
  response: unknown,
  status: InteractionRecord["status"] = "answered",
): InteractionRecord {
  return {
    id: formId(USE.id, k),
    toolCallId: USE.id,
    frameId: "main",
    kind: "form",
    toolName: USE.name,
    request: ASK,
    status,
    response,
    deadline: 1_005,
    createdAt: 5,
    resolvedAt: 6,
    resolvedBy: null,
  };
}

describe("ctx.elicit for one tool run", () => {
  it("stores the first unanswered form, announces it and stops the run", async () => {
    const { deps, rows, events } = host();
    const forms = toolElicitation(deps, USE);
    await expect(forms.elicit(ASK)).rejects.toBeInstanceOf(ToolPause);
    expect(forms.paused).toBe(true);
    expect(rows.get("toolu_1-form-1")).toMatchObject({
      toolCallId: "toolu_1",
      frameId: "main",
      kind: "form",
      deadline: 1_005,
    });
    expect(events).toEqual([
      {
        type: "interaction_prompt",
        data: expect.objectContaining({ interactionId: "toolu_1-form-1", kind: "form" }),
      },
    ]);
  });

  it("returns the recorded results in order on a later run, a lapsed form as cancel", async () => {
    const { deps } = host([
      answered(1, { action: "accept", content: { day: "2026-12-01" } }),
      answered(2, null, "timed_out"),
    ]);
    const forms = toolElicitation(deps, USE);
    expect(await forms.elicit(ASK)).toEqual({ action: "accept", content: { day: "2026-12-01" } });
    expect(await forms.elicit(ASK)).toEqual({ action: "cancel" });
    await expect(forms.elicit(ASK)).rejects.toBeInstanceOf(ToolPause);
    expect(forms.paused).toBe(true);
  });

  it("stays paused when a tool swallows the pause and asks again", async () => {
    const { deps, rows } = host();
    const forms = toolElicitation(deps, USE);
    await forms.elicit(ASK).catch(() => undefined);
    await expect(forms.elicit(ASK)).rejects.toBeInstanceOf(ToolPause);
    expect([...rows.keys()]).toEqual(["toolu_1-form-1"]);
  });

  it("fails a run that asks more often than the limit per tool call", async () => {
    const { deps } = host([answered(1, { action: "decline" }), answered(2, { action: "decline" })], 2);
    const forms = toolElicitation(deps, USE);
    await forms.elicit(ASK);
    await forms.elicit(ASK);
    await expect(forms.elicit(ASK)).rejects.toThrow("asked the user more than 2 times in one call");
  });

  it("fails a run whose form the spec does not allow, naming the property", async () => {
    const { deps, rows } = host();
    const nested = {
      message: "x",
      requestedSchema: { type: "object", properties: { a: { type: "object" } } },
    };
    await expect(toolElicitation(deps, USE).elicit(nested as never)).rejects.toThrow(
      "its form is invalid: requestedSchema.properties.a: nested objects are not supported",
    );
    expect(rows.size).toBe(0);
  });
});

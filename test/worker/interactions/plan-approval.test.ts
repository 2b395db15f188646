// Plan approval: ExitPlanMode in plan mode, the three choices and the mode each leaves the session in,
// on every device, across eviction; timeout and cancel keep the session planning.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEMO_PLAN_TITLE } from "../../../src/model/demo-script";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import {
  dumpStorage,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  tableRows,
  toolResultsOf,
} from "./interaction-fixtures";

const PLAN = "## Plan\n\n1. Write the note\n2. Report back";

function planThenWrite(id = "toolu_plan") {
  return [
    toolReply([{ name: "ExitPlanMode", id, input: { plan: PLAN } }], "Here is my plan."),
    toolReply([{ name: "notes_write", id: "toolu_write", input: { key: "plan", text: "Done" } }]),
    textReply("All done."),
  ];
}

async function modeOf(session: { sessionId: string; token: string }) {
  const rows = await tableRows<{ value: string }>(
    stubOf(session),
    "SELECT value FROM meta WHERE key = 'mode'",
  );
  return JSON.parse(rows[0]?.value ?? "null");
}

describe("plan approval", () => {
  it("approving with edits accepted switches every device to acceptEdits, so the edit runs unasked", async () => {
    const session = await createSession({ permissionMode: "plan", script: planThenWrite() });
    const stub = stubOf(session);
    const laptop = await connect(session, { device: "laptop" });
    const phone = await connect(session, { device: "phone" });
    await laptop.request({ type: "send_message", text: "Save a note" });
    const prompt = await phone.waitForEvent("interaction_prompt");
    expect(prompt.data).toMatchObject({ kind: "plan", toolName: "ExitPlanMode", request: { plan: PLAN } });
    // The model was told it is planning, and how to present the plan.
    expect((await modelRequests(stub))[0]?.system[0]?.text).toMatch(/Permission mode: plan\./);

    // A card survives eviction like every other card.
    await evictDurableObject(stub);
    const ack = await phone.request({
      type: "respond",
      toolCallId: "toolu_plan",
      response: { choice: "accept_edits" },
    });
    expect(ack).toMatchObject({ ok: true, result: { outcome: "approved", resolvedBy: "phone" } });
    await laptop.waitForDone();
    const status = laptop.event("session_status", (e) => e.data.mode === "acceptEdits");
    expect(status?.data.mode).toBe("acceptEdits");
    expect(laptop.event("approval_required")).toBeUndefined();
    expect(await modeOf(session)).toBe("acceptEdits");
    // This instance (after the eviction) made the calls that followed the decision.
    const afterPlan = (await modelRequests(stub))[0];
    expect(toolResultsOf(lastMessage(afterPlan))[0]).toMatchObject({
      toolUseId: "toolu_plan",
      isError: false,
    });
    expect(afterPlan?.system[0]?.text).not.toMatch(/Permission mode: plan/);
    expect(await tableRows(stub, "SELECT key, text FROM notes")).toEqual([{ key: "plan", text: "Done" }]);
    laptop.close();
    phone.close();
  });

  it("approving to review each action switches to default, so the edit asks first", async () => {
    const session = await createSession({ permissionMode: "plan", script: planThenWrite() });
    const device = await connect(session, { device: "laptop" });
    await device.request({ type: "send_message", text: "Save a note" });
    await device.waitForEvent("interaction_prompt");
    const answered = await post(session, "respond", {
      toolCallId: "toolu_plan",
      response: { choice: "review_each" },
    });
    expect(answered.status).toBe(200);
    const approval = await device.waitForEvent("approval_required");
    expect(approval.data.toolCallId).toBe("toolu_write");
    expect(await modeOf(session)).toBe("default");
    device.close();
  });

  it("keeping planning sends the feedback to the model and stays in plan mode", async () => {
    const session = await createSession({
      permissionMode: "plan",
      script: [planThenWrite()[0], textReply("I will revise it.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save a note" });
    await device.waitForEvent("interaction_prompt");
    await device.request({
      type: "respond",
      toolCallId: "toolu_plan",
      response: { choice: "keep_planning", feedback: "Add a test step" },
    });
    await device.waitForDone();
    const result = toolResultsOf(lastMessage((await modelRequests(session))[1]))[0];
    expect(result?.isError).toBe(true);
    expect(JSON.stringify(result?.content)).toContain("Their feedback: Add a test step");
    expect(await modeOf(session)).toBe("plan");
    device.close();
  });

  it("refuses a decision that is not one of the choices and changes nothing", async () => {
    const session = await createSession({ permissionMode: "plan", script: planThenWrite() });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save a note" });
    await device.waitForEvent("interaction_prompt");
    const before = await dumpStorage(session);
    const ack = await device.request({
      type: "respond",
      toolCallId: "toolu_plan",
      response: { choice: "yolo" },
    });
    expect(ack).toMatchObject({ ok: false, error: { code: "invalid_answer" } });
    expect(ack.error?.message).toContain(
      'choice must be one of "accept_edits", "review_each", "keep_planning"',
    );
    expect(await dumpStorage(session)).toEqual(before);
    device.close();
  });

  it("keeps the session in plan mode when the plan times out", async () => {
    const session = await createSession({
      permissionMode: "plan",
      interactionTimeoutMs: 60_000,
      script: [planThenWrite()[0], textReply("Still planning.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save a note" });
    const prompt = await device.waitForEvent("interaction_prompt");
    await advanceClock(session, { at: prompt.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stubOf(session))).toBe(true);
    await device.waitForDone();
    expect(device.event("interaction_resolved")?.data.outcome).toBe("timed_out");
    expect(await modeOf(session)).toBe("plan");
    device.close();
  });

  it("the offline demo model presents a plan in plan mode and carries it out once approved", async () => {
    const session = await createSession({ permissionMode: "plan" });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Show me plan mode" });
    const prompt = await device.waitForEvent("interaction_prompt", undefined, 15_000);
    expect(prompt.data.kind).toBe("plan");
    expect(JSON.stringify(prompt.data.request)).toContain(DEMO_PLAN_TITLE);
    await device.request({
      type: "respond",
      toolCallId: prompt.data.toolCallId,
      response: { choice: "accept_edits" },
    });
    await device.waitForDone(1, 15_000);
    // acceptEdits: the demo's note was written without an approval card.
    expect(device.event("approval_required")).toBeUndefined();
    expect(await tableRows(stubOf(session), "SELECT key FROM notes")).toEqual([{ key: "demo" }]);
    device.close();
  });

  it("tells a model that calls ExitPlanMode outside plan mode that it cannot", async () => {
    const session = await createSession({ script: [planThenWrite()[0], textReply("Understood.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save a note" });
    await device.waitForDone();
    expect(device.event("interaction_prompt")).toBeUndefined();
    expect(toolResultsOf(lastMessage((await modelRequests(session))[1]))[0]).toEqual({
      toolUseId: "toolu_plan",
      content:
        'Invalid ExitPlanMode input: it is only available in "plan" permission mode, and the session is in "default" mode',
      isError: true,
    });
    device.close();
  });
});

// The model opens a form with RequestUserInput: answered over HTTP or a socket, declined, refused
// field by field with storage untouched, raced by two devices, timed out by the alarm, cancelled.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import {
  dumpStorage,
  expectAlarmAt,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  toolResultsOf,
} from "./interaction-fixtures";

const FORM = "toolu_form_contact";
const contactForm = {
  message: "How should the courier reach you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 2 },
      email: { type: "string", title: "Email", format: "email" },
      floor: { type: "integer", title: "Floor", minimum: 0, maximum: 120 },
      ring: { type: "boolean", title: "Ring the bell", default: true },
    },
    required: ["name", "email"],
  },
};

async function pausedAtForm(options: { interactionTimeoutMs?: number } = {}) {
  const session = await createSession({
    ...options,
    script: [toolReply([{ name: "RequestUserInput", id: FORM, input: contactForm }]), textReply("Booked.")],
  });
  const stub = stubOf(session);
  const device = await connect(session, { device: "laptop" });
  await device.request({ type: "send_message", text: "Book the courier" });
  const prompt = await device.waitForEvent("interaction_prompt");
  await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
  return { session, stub, device, prompt };
}

async function resultTheModelSaw(stub: ReturnType<typeof stubOf>) {
  const request = (await modelRequests(stub))[1];
  return toolResultsOf(lastMessage(request));
}

describe("a form the model opens", () => {
  it("announces the form with its kind and ids, and tells the model what was submitted over HTTP", async () => {
    const { session, stub, device, prompt } = await pausedAtForm();
    expect(prompt.data).toMatchObject({
      kind: "form",
      toolCallId: FORM,
      interactionId: FORM,
      toolName: "RequestUserInput",
      request: contactForm,
    });
    expect(device.hello?.snapshot.pending).toEqual([]);
    const content = { name: "Ada", email: "ada@example.com", floor: 3, ring: false };
    const answered = await post(
      session,
      "respond",
      { toolCallId: FORM, response: { action: "accept", content } },
      "laptop",
    );
    expect(answered.status).toBe(200);
    expect(answered.body.result).toMatchObject({
      outcome: "answered",
      interactionId: FORM,
      resolvedBy: "laptop",
    });
    await device.waitForDone();
    expect(await resultTheModelSaw(stub)).toEqual([
      {
        toolUseId: FORM,
        content: `User accepted the form and submitted: ${JSON.stringify(content)}`,
        isError: false,
      },
    ]);
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("takes an answer over the socket by interaction id, and a decline reaches the model as such", async () => {
    const { stub, device, prompt } = await pausedAtForm();
    const ack = await device.request({
      type: "respond",
      interactionId: prompt.data.interactionId,
      response: { action: "decline" },
    });
    expect(ack).toMatchObject({ ok: true, result: { outcome: "denied", response: { action: "decline" } } });
    await device.waitForDone();
    expect((await resultTheModelSaw(stub))[0]).toMatchObject({
      content: "User declined the form and provided no information.",
      isError: false,
    });
    device.close();
  });

  it.each([
    [
      { action: "accept", content: { name: "A", email: "nope", floor: 121 } },
      "name: must be at least 2 characters; email: must be an email address; floor: must be at most 120",
    ],
    [
      { action: "accept", content: { email: "ada@example.com", colour: "red" } },
      "name: is required; colour: is not a field of this form",
    ],
    [
      { action: "accept", content: { name: "Ada", email: "ada@example.com", ring: "yes" } },
      "ring: must be true or false",
    ],
    [{ action: "accept" }, "content: accept needs content"],
    [{ action: "decline", content: { name: "Ada" } }, 'Unrecognized key: "content"'],
    [{ action: "maybe" }, 'action must be "accept", "decline" or "cancel"'],
  ])("refuses %j precisely and changes nothing", async (response, message) => {
    const { session, stub, device, prompt } = await pausedAtForm();
    const before = await dumpStorage(stub);
    const ack = await device.request({ type: "respond", interactionId: FORM, response });
    expect(ack.error).toMatchObject({ code: "invalid_answer" });
    expect(ack.error?.message).toContain(message);
    const overHttp = await post(session, "respond", { interactionId: FORM, response });
    expect(overHttp.status).toBe(400);
    expect(await dumpStorage(stub)).toEqual(before);
    await expectAlarmAt(stub, prompt.data.expiresAt);
    device.close();
  });

  it("names each bad field separately for the card to show inline", async () => {
    const { device } = await pausedAtForm();
    const ack = await device.request({
      type: "respond",
      interactionId: FORM,
      response: { action: "accept", content: { name: "Ada", email: "x" } },
    });
    expect(ack.error?.fields).toEqual({ email: "must be an email address" });
    device.close();
  });

  it("refuses a respond naming both ids, neither, or an unknown one, changing nothing", async () => {
    const { session, stub, device } = await pausedAtForm();
    const before = await dumpStorage(stub);
    const both = await post(session, "respond", { interactionId: FORM, toolCallId: FORM, response: {} });
    expect(both.body.error).toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("exactly one"),
    });
    const neither = await device.request({ type: "respond", response: { action: "decline" } });
    expect(neither.error?.code).toBe("invalid_input");
    const unknown = await post(session, "respond", {
      interactionId: "toolu_nope-form-1",
      response: { action: "decline" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe("unknown_interaction");
    expect(await dumpStorage(stub)).toEqual(before);
    device.close();
  });

  it("lets the first of two devices win; the second gets 409 with the winner and storage is unchanged", async () => {
    const { session, stub, device } = await pausedAtForm();
    const phone = await connect(session, { device: "phone" });
    const [first, second] = await Promise.all([
      device.request({ type: "respond", interactionId: FORM, response: { action: "decline" } }),
      phone.request({
        type: "respond",
        interactionId: FORM,
        response: { action: "accept", content: { name: "Ada", email: "ada@example.com" } },
      }),
    ]);
    const winner = first.ok ? first : second;
    const loser = first.ok ? second : first;
    expect(winner.ok).toBe(true);
    expect(loser.error).toMatchObject({ code: "already_resolved", resolution: winner.result as object });
    await device.waitForDone();
    const after = await dumpStorage(stub);
    const late = await post(session, "respond", { interactionId: FORM, response: { action: "decline" } });
    expect(late.status).toBe(409);
    expect(late.body.error?.resolution).toEqual(winner.result);
    expect(await dumpStorage(stub)).toEqual(after);
    const resolved = device.events.filter((e) => e.type === "interaction_resolved");
    expect(resolved).toHaveLength(1);
    await phone.waitForEvent("interaction_resolved");
    phone.close();
    device.close();
  });

  it("times the form out from the alarm, and the model reads a timeout", async () => {
    const { stub, device, prompt } = await pausedAtForm({ interactionTimeoutMs: 60_000 });
    await advanceClock(stub, { at: prompt.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({ outcome: "timed_out", interactionId: FORM });
    await device.waitForDone();
    expect(device.events.filter((e) => e.type === "interaction_resolved")).toHaveLength(1);
    expect((await resultTheModelSaw(stub))[0]).toMatchObject({
      content: "User did not respond to the form within 1 minute",
      isError: true,
    });
    device.close();
  });

  it("is cancelled with the turn, and cannot be answered afterwards", async () => {
    const { session, device } = await pausedAtForm();
    expect((await device.request({ type: "cancel" })).ok).toBe(true);
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data.outcome).toBe("cancelled");
    const result = await device.waitForEvent("tool_result", (e) => e.data.toolCallId === FORM);
    expect(result.data).toMatchObject({
      content: "User cancelled the turn before answering the form",
      isError: true,
    });
    const late = await post(session, "respond", { interactionId: FORM, response: { action: "decline" } });
    expect(late.body.error?.code).toBe("already_resolved");
    device.close();
  });
});

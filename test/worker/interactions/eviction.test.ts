import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { connect, createSession, type Device, textReply, toolReply } from "../../helpers/session-harness";
import {
  answeredResult,
  COLOUR_QUESTION,
  colourQuestion,
  eventsOf,
  expectAlarmAt,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  toolResultsOf,
} from "./interaction-fixtures";

const ASK = "toolu_ask_evicted";

/** Starts a turn that stops at a question, and returns the device that watched it happen. */
async function pausedAtQuestion() {
  const session = await createSession({
    script: [
      toolReply([{ name: "AskUserQuestion", id: ASK, input: colourQuestion() }]),
      textReply("Green, then."),
    ],
  });
  const stub = stubOf(session);
  const device = await connect(session, { device: "phone" });
  await device.request({ type: "send_message", text: "Choose a colour with me" });
  const prompt = await device.waitForEvent("question_prompt");
  await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
  return { session, stub, device, prompt };
}

const answers = { [COLOUR_QUESTION]: "Green" };

describe("a question pending while the session object is evicted", () => {
  it("resumes from storage when answered over HTTP after eviction closed every socket", async () => {
    const { session, stub, device, prompt } = await pausedAtQuestion();
    await evictDurableObject(stub, { webSockets: "close" });
    await device.until(() => device.closed, "the socket to close");
    await expectAlarmAt(stub, prompt.data.expiresAt);

    const answered = await post(session, "submit-answers", { toolCallId: ASK, answers }, "laptop");
    expect(answered.status).toBe(200);
    expect(answered.body.result).toMatchObject({ outcome: "answered", resolvedBy: "laptop" });

    const later = await connect(session, { device: "phone", after: device.seqs().at(-1) ?? 0 });
    await later.waitForDone();
    expect(later.event("interaction_resolved")?.data).toMatchObject({ outcome: "answered" });
    await expectResumedFromStorage(later, stub);
    later.close();
  });

  it("resumes from storage when answered over a socket reconnected after eviction", async () => {
    const { session, stub, device, prompt } = await pausedAtQuestion();
    await evictDurableObject(stub, { webSockets: "close" });
    await device.until(() => device.closed, "the socket to close");

    const back = await connect(session, { device: "phone", after: device.seqs().at(-1) ?? 0 });
    expect(back.hello?.snapshot).toMatchObject({
      status: "awaiting_input",
      pending: [{ toolCallId: ASK, status: "pending", expiresAt: prompt.data.expiresAt }],
    });
    const ack = await back.request({ type: "submit_answers", toolCallId: ASK, answers });
    expect(ack).toMatchObject({ ok: true, result: { outcome: "answered", resolvedBy: "phone" } });
    await back.waitForDone();
    await expectResumedFromStorage(back, stub);
    back.close();
  });

  it("resumes from storage when answered over a socket that stayed open through hibernation", async () => {
    const { stub, device, prompt } = await pausedAtQuestion();
    await evictDurableObject(stub, { webSockets: "hibernate" });
    expect(device.closed).toBe(false);
    await expectAlarmAt(stub, prompt.data.expiresAt);

    const ack = await device.request({ type: "submit_answers", toolCallId: ASK, answers });
    expect(ack).toMatchObject({ ok: true, result: { outcome: "answered", resolvedBy: "phone" } });
    await device.waitForDone();
    await expectResumedFromStorage(device, stub);
    device.close();
  });

  it("resumes from storage when answered over HTTP while a hibernated socket watches", async () => {
    const { session, stub, device } = await pausedAtQuestion();
    await evictDurableObject(stub, { webSockets: "hibernate" });

    const answered = await post(session, "submit-answers", { toolCallId: ASK, answers }, "laptop");
    expect(answered.status).toBe(200);
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({ outcome: "answered", resolvedBy: "laptop" });
    await device.waitForDone();
    await expectResumedFromStorage(device, stub);
    device.close();
  });
});

/**
 * The instance that continued the turn is a fresh one: its model saw only the second call, built
 * from the stored transcript, and the session ends idle with no alarm left.
 */
async function expectResumedFromStorage(device: Device, stub: ReturnType<typeof stubOf>) {
  const requests = await modelRequests(stub);
  expect(requests).toHaveLength(1);
  const [request] = requests;
  expect(request?.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  expect(toolResultsOf(lastMessage(request))).toEqual([
    { toolUseId: ASK, content: answeredResult([[COLOUR_QUESTION, "Green"]]), isError: false },
  ]);
  const text = eventsOf(device, "text_delta")
    .map((event) => event.data.text)
    .join("");
  expect(text).toContain("Green, then.");
  // The only transition to idle is the one after the resumed turn ends.
  await device.waitForEvent("session_status", (e) => e.data.status === "idle");
  await expectAlarmAt(stub, null);
}

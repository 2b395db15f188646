// One question, many devices: every device sees the card and the same receipt, the first answer
// wins, and an answer after eviction resumes the turn from storage.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AckFrame } from "../../../src/protocol";
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

const ASK = "toolu_ask_colour";

function askingSession() {
  return createSession({
    script: [
      toolReply([{ name: "AskUserQuestion", id: ASK, input: colourQuestion() }], "Let me ask."),
      textReply("Going with it."),
    ],
  });
}

describe("a question on many devices", () => {
  it("shows the question on every device and resumes the turn with the answer another device gave", async () => {
    const session = await askingSession();
    const stub = stubOf(session);
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });
    await phone.request({ type: "send_message", text: "Pick a theme colour with me" });

    const onPhone = await phone.waitForEvent("question_prompt");
    const onLaptop = await laptop.waitForEvent("question_prompt");
    expect(onLaptop).toEqual(onPhone);
    expect(onPhone.data).toMatchObject({ toolCallId: ASK, kind: "question", toolName: "AskUserQuestion" });
    expect(onPhone.data.expiresAt).toBe(onPhone.data.createdAt + 600_000);
    await phone.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    // Paused for a person: the watchdog is gone and only the question's deadline remains.
    await expectAlarmAt(stub, onPhone.data.expiresAt);

    const ack = await laptop.request({
      type: "submit_answers",
      toolCallId: ASK,
      answers: { [COLOUR_QUESTION]: "Green" },
    });
    expect(ack).toMatchObject({ ok: true, result: { outcome: "answered", resolvedBy: "laptop" } });

    const seenByPhone = await phone.waitForEvent("interaction_resolved");
    const seenByLaptop = await laptop.waitForEvent("interaction_resolved");
    expect(seenByLaptop).toEqual(seenByPhone);
    expect(seenByPhone.data).toMatchObject({
      toolCallId: ASK,
      outcome: "answered",
      resolvedBy: "laptop",
      response: { answers: { [COLOUR_QUESTION]: "Green" } },
    });

    await phone.waitForDone();
    await laptop.waitForDone();
    // An answer resumes the turn; it is not a crash, so nobody is told the call was lost.
    expect(phone.event("turn_restarted")).toBeUndefined();
    const requests = await modelRequests(stub);
    expect(requests).toHaveLength(2);
    expect(toolResultsOf(lastMessage(requests[1]))).toEqual([
      { toolUseId: ASK, content: answeredResult([[COLOUR_QUESTION, "Green"]]), isError: false },
    ]);
    // A person took part in this turn, so the rolling cache point outlives their thinking time.
    expect(lastMessage(requests[1]).content.at(-1)).toMatchObject({
      cache_control: { type: "ephemeral", ttl: "1h" },
    });
    await expectAlarmAt(stub, null);
    phone.close();
    laptop.close();
  });

  it("lets exactly one of two answers sent at the same moment win, and tells the other device who won", async () => {
    const session = await askingSession();
    const stub = stubOf(session);
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });
    await phone.request({ type: "send_message", text: "Pick a theme colour with me" });
    await phone.waitForEvent("question_prompt");
    await laptop.waitForEvent("question_prompt");

    const [fromPhone, fromLaptop] = await Promise.all([
      phone.request({ type: "submit_answers", toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Blue" } }),
      laptop.request({ type: "submit_answers", toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Green" } }),
    ]);
    const acks = [fromPhone, fromLaptop];
    const winners = acks.filter((ack) => ack.ok);
    const losers = acks.filter((ack) => !ack.ok);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    const winner = winners[0] as AckFrame;
    expect(losers[0]?.error).toMatchObject({ code: "already_resolved", resolution: winner.result });

    await phone.waitForDone();
    await laptop.waitForDone();
    const winningAnswer = winner === fromPhone ? "Blue" : "Green";
    for (const device of [phone, laptop]) {
      expect(eventsOf(device, "interaction_resolved")).toHaveLength(1);
      expect(eventsOf(device, "tool_result").filter((e) => e.data.toolCallId === ASK)).toHaveLength(1);
    }
    const requests = await modelRequests(stub);
    expect(requests).toHaveLength(2);
    expect(toolResultsOf(lastMessage(requests[1]))).toEqual([
      { toolUseId: ASK, content: answeredResult([[COLOUR_QUESTION, winningAnswer]]), isError: false },
    ]);
    await expectAlarmAt(stub, null);
    phone.close();
    laptop.close();
  });

  it("answers the losing one of two simultaneous HTTP answers with 409 and the winning resolution", async () => {
    const session = await askingSession();
    const stub = stubOf(session);
    const watcher = await connect(session, { device: "tablet" });
    await watcher.request({ type: "send_message", text: "Pick a theme colour with me" });
    await watcher.waitForEvent("question_prompt");

    const responses = await Promise.all([
      post(session, "submit-answers", { toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Blue" } }, "phone"),
      post(session, "submit-answers", { toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Green" } }, "laptop"),
    ]);
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 409]);
    const won = responses.find((response) => response.status === 200);
    const lost = responses.find((response) => response.status === 409);
    expect(lost?.body.error).toMatchObject({ code: "already_resolved", resolution: won?.body.result });

    // A socket answering late gets the same verdict.
    const late = await watcher.request({
      type: "submit_answers",
      toolCallId: ASK,
      answers: { [COLOUR_QUESTION]: "Blue" },
    });
    expect(late.error).toMatchObject({ code: "already_resolved", resolution: won?.body.result });

    await watcher.waitForDone();
    const resolved = eventsOf(watcher, "interaction_resolved");
    expect(resolved).toHaveLength(1);
    expect(resolved[0]?.data).toEqual(won?.body.result);
    expect(toolResultsOf(lastMessage((await modelRequests(stub))[1]))).toHaveLength(1);
    await expectAlarmAt(stub, null);
    watcher.close();
  });
});

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

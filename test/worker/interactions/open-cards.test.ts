// Several cards open at once: an approval and a question from one assistant message, resolved in
// either order, and a cancel that closes every open card for every device.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageParam } from "../../../src/model/model-client";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
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
  tableRows,
  toolResultsOf,
} from "./interaction-fixtures";

const WRITE = "toolu_parallel_write";
const ASK = "toolu_parallel_ask";

/** One assistant message that needs both an approval (notes_write) and an answer (AskUserQuestion). */
async function pausedAtBoth() {
  const session = await createSession({
    permissionMode: "default",
    script: [
      toolReply([
        { name: "notes_write", id: WRITE, input: { key: "theme", text: "Pick a colour" } },
        { name: "AskUserQuestion", id: ASK, input: colourQuestion() },
      ]),
      textReply("Done with both."),
    ],
  });
  const stub = stubOf(session);
  const phone = await connect(session, { device: "phone" });
  const laptop = await connect(session, { device: "laptop" });
  await phone.request({ type: "send_message", text: "Save a note and ask me the colour" });
  const approval = await phone.waitForEvent("approval_required");
  const question = await phone.waitForEvent("question_prompt");
  await phone.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
  await expectAlarmAt(stub, Math.min(approval.data.expiresAt, question.data.expiresAt));
  return { session, stub, phone, laptop, approval, question };
}

const answerBlue = { type: "submit_answers", toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Blue" } };

describe("an approval and a question pending at the same time", () => {
  it("runs the approved tool at once but calls the model only after the question is answered too", async () => {
    const { stub, phone, laptop, question } = await pausedAtBoth();

    expect(await laptop.request({ type: "approve", toolCallId: WRITE })).toMatchObject({ ok: true });
    await phone.waitForEvent("tool_result", (e) => e.data.toolCallId === WRITE);
    expect(await tableRows(stub, "SELECT key, text FROM notes")).toEqual([
      { key: "theme", text: "Pick a colour" },
    ]);
    expect(await modelRequests(stub)).toHaveLength(1);
    await expectAlarmAt(stub, question.data.expiresAt);

    expect(await phone.request(answerBlue)).toMatchObject({ ok: true });
    await phone.waitForDone();
    await expectOneMessageWithBothResults(stub);
    phone.close();
    laptop.close();
  });

  it("records the answer first and calls the model only after the approval is given too", async () => {
    const { stub, phone, laptop, approval } = await pausedAtBoth();

    expect(await phone.request(answerBlue)).toMatchObject({ ok: true });
    await phone.waitForEvent("tool_result", (e) => e.data.toolCallId === ASK);
    expect(await modelRequests(stub)).toHaveLength(1);
    expect(await tableRows(stub, "SELECT key FROM notes")).toEqual([]);
    await expectAlarmAt(stub, approval.data.expiresAt);

    expect(await laptop.request({ type: "approve", toolCallId: WRITE })).toMatchObject({ ok: true });
    await phone.waitForDone();
    await expectOneMessageWithBothResults(stub);
    phone.close();
    laptop.close();
  });
});

/** The next request carries both results in one user message, in the order of the tool calls. */
async function expectOneMessageWithBothResults(stub: ReturnType<typeof stubOf>) {
  const requests = await modelRequests(stub);
  expect(requests).toHaveLength(2);
  const message = lastMessage(requests[1]);
  expect(message.role).toBe("user");
  expect(toolResultsOf(message)).toEqual([
    { toolUseId: WRITE, content: 'Saved note "theme" (13 characters).', isError: false },
    { toolUseId: ASK, content: answeredResult([[COLOUR_QUESTION, "Blue"]]), isError: false },
  ]);
  // Nothing else between the assistant's tool calls and the results.
  expect(requests[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  await expectAlarmAt(stub, null);
}

describe("cancelling a turn that waits for a person", () => {
  it("cancels every open card for every device, and no card can be answered afterwards", async () => {
    const { session, stub, phone, laptop } = await pausedAtBoth();

    expect(await laptop.request({ type: "cancel" })).toMatchObject({ ok: true });
    for (const device of [phone, laptop]) {
      await device.waitForDone();
      await device.waitForEvent("session_status", (e) => e.data.status === "idle");
      const resolved = eventsOf(device, "interaction_resolved").map((e) => e.data);
      expect(resolved).toEqual([
        expect.objectContaining({ toolCallId: WRITE, outcome: "cancelled", resolvedBy: "laptop" }),
        expect.objectContaining({ toolCallId: ASK, outcome: "cancelled", resolvedBy: "laptop" }),
      ]);
      expect(device.event("done")?.data.stopReason).toBe("cancelled");
    }
    await expectAlarmAt(stub, null);

    const approve = await phone.request({ type: "approve", toolCallId: WRITE });
    expect(approve.error).toMatchObject({
      code: "already_resolved",
      resolution: { toolCallId: WRITE, outcome: "cancelled", resolvedBy: "laptop" },
    });
    const answer = await post(
      session,
      "submit-answers",
      { toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Blue" } },
      "phone",
    );
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: "already_resolved",
      resolution: { outcome: "cancelled" },
    });
    expect(await tableRows(stub, "SELECT key FROM notes")).toEqual([]);
    expect(eventsOf(phone, "interaction_resolved")).toHaveLength(2);
    expect(await modelRequests(stub)).toHaveLength(1);
    await expectAlarmAt(stub, null);
    phone.close();
    laptop.close();
  });

  it("leaves a transcript the model accepts when the next message arrives", async () => {
    const { session, stub, phone, laptop } = await pausedAtBoth();
    const cancelled = await post(session, "cancel", {}, "phone");
    expect(cancelled.status).toBe(200);
    await phone.waitForDone();

    await phone.request({ type: "send_message", text: "Never mind, let's start again" });
    await phone.waitForDone(2);
    const requests = await modelRequests(stub);
    expect(requests).toHaveLength(2);
    const messages = requests[1]?.messages ?? [];
    expectEveryToolCallAnswered(messages);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const last = lastMessage(requests[1]);
    expect(toolResultsOf(last)).toEqual([
      { toolUseId: WRITE, content: expect.stringContaining("cancelled"), isError: true },
      { toolUseId: ASK, content: expect.stringContaining("cancelled"), isError: true },
    ]);
    expect(Array.isArray(last.content) && last.content.at(-1)).toMatchObject({
      type: "text",
      text: "Never mind, let's start again",
    });
    await expectAlarmAt(stub, null);
    phone.close();
    laptop.close();
  });

  it("cancels the open cards of a session whose object was evicted while it waited", async () => {
    const { session, stub, phone, laptop } = await pausedAtBoth();
    await evictDurableObject(stub, { webSockets: "hibernate" });

    const cancelled = await post(session, "cancel", {}, "laptop");
    expect(cancelled.status).toBe(200);
    await phone.waitForDone();
    expect(eventsOf(phone, "interaction_resolved").map((e) => [e.data.toolCallId, e.data.outcome])).toEqual([
      [WRITE, "cancelled"],
      [ASK, "cancelled"],
    ]);
    const late = await phone.request({ type: "approve", toolCallId: WRITE });
    expect(late.error?.code).toBe("already_resolved");
    await expectAlarmAt(stub, null);
    phone.close();
    laptop.close();
  });
});

/** The Messages API rule: each assistant tool_use is answered by a tool_result in the next message. */
function expectEveryToolCallAnswered(messages: MessageParam[]) {
  messages.forEach((message, index) => {
    if (message.role !== "assistant" || typeof message.content === "string") return;
    const uses = message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
    if (uses.length === 0) return;
    const next = messages[index + 1];
    expect(next?.role).toBe("user");
    const answered = next ? toolResultsOf(next).map((result) => result.toolUseId) : [];
    expect(answered).toEqual(uses);
  });
}

import { describe, expect, it } from "vitest";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import {
  answeredResult,
  COLOUR_QUESTION,
  colourQuestion,
  expectAlarmAt,
  lastMessage,
  modelRequests,
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
      textReply("Noted, and blue it is."),
    ],
  });
  const stub = stubOf(session);
  const device = await connect(session, { device: "phone" });
  await device.request({ type: "send_message", text: "Save a note and ask me the colour" });
  const approval = await device.waitForEvent("approval_required");
  const question = await device.waitForEvent("question_prompt");
  await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
  await expectAlarmAt(stub, Math.min(approval.data.expiresAt, question.data.expiresAt));
  return { session, stub, device, approval, question };
}

const answerBlue = { type: "submit_answers", toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Blue" } };

describe("an approval and a question pending at the same time", () => {
  it("runs the approved tool at once but calls the model only after the question is answered too", async () => {
    const { stub, device, question } = await pausedAtBoth();

    expect(await device.request({ type: "approve", toolCallId: WRITE })).toMatchObject({ ok: true });
    await device.waitForEvent("tool_result", (e) => e.data.toolCallId === WRITE);
    expect(await tableRows(stub, "SELECT key, text FROM notes")).toEqual([
      { key: "theme", text: "Pick a colour" },
    ]);
    expect(await modelRequests(stub)).toHaveLength(1);
    await expectAlarmAt(stub, question.data.expiresAt);

    expect(await device.request(answerBlue)).toMatchObject({ ok: true });
    await device.waitForDone();
    await expectOneMessageWithBothResults(stub);
    device.close();
  });

  it("records the answer first and calls the model only after the approval is given too", async () => {
    const { stub, device, approval } = await pausedAtBoth();

    expect(await device.request(answerBlue)).toMatchObject({ ok: true });
    await device.waitForEvent("tool_result", (e) => e.data.toolCallId === ASK);
    expect(await modelRequests(stub)).toHaveLength(1);
    expect(await tableRows(stub, "SELECT key FROM notes")).toEqual([]);
    await expectAlarmAt(stub, approval.data.expiresAt);

    expect(await device.request({ type: "approve", toolCallId: WRITE })).toMatchObject({ ok: true });
    await device.waitForDone();
    await expectOneMessageWithBothResults(stub);
    device.close();
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

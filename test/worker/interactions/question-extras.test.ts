// AskUserQuestion as the SDK has it today: notes on answers, previews on options, and a chat
// message that answers an open card ("replied in chat") instead of queueing behind the turn.
import { describe, expect, it } from "vitest";
import { MAX_NOTE_CHARS, MAX_PREVIEW_CHARS } from "../../../src/protocol/limits";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import {
  COLOUR_QUESTION,
  colourQuestion,
  dumpStorage,
  lastMessage,
  modelRequests,
  stubOf,
  toolResultsOf,
} from "./interaction-fixtures";

function ask(input: Record<string, unknown> = colourQuestion()) {
  return toolReply([{ name: "AskUserQuestion", id: "toolu_ask", input }]);
}

describe("AskUserQuestion extras", () => {
  it("a message sent while the card is open answers it in chat and reaches the model at once", async () => {
    const session = await createSession({ script: [ask(), textReply("Purple it is.")] });
    const laptop = await connect(session, { device: "laptop" });
    const phone = await connect(session, { device: "phone" });
    await laptop.request({ type: "send_message", text: "Pick a colour" });
    await phone.waitForEvent("question_prompt");

    const ack = await phone.request({ type: "send_message", text: "Neither — use purple" });
    expect(ack).toMatchObject({ ok: true, result: { queued: false, answered: ["toolu_ask"] } });
    await laptop.waitForDone();
    const resolved = laptop.event("interaction_resolved");
    expect(resolved?.data).toMatchObject({
      outcome: "answered",
      resolvedBy: "phone",
      response: {
        annotations: { [COLOUR_QUESTION]: { unanswered: "replied_in_chat" } },
        chatReply: "Neither — use purple",
      },
    });
    const message = laptop.event("user_message", (e) => e.data.text === "Neither — use purple");
    expect(message?.data.queued).toBe(false);
    expect(message!.seq).toBeLessThan(resolved!.seq);
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(2);
    expect(toolResultsOf(lastMessage(requests[1]))).toEqual([
      {
        toolUseId: "toolu_ask",
        content:
          'The user did not pick answers and replied in chat instead: "Neither — use purple". Take their message as their answer to your questions.',
        isError: false,
      },
    ]);
    // Nothing was left queued to start another turn.
    expect(laptop.events.filter((e) => e.type === "turn_started")).toHaveLength(1);
    laptop.close();
    phone.close();
  });

  it("passes a person's note on an answer to the model, with the chosen option's preview kept", async () => {
    const input = colourQuestion();
    input.questions[0]!.options[0] = {
      ...input.questions[0]!.options[0]!,
      preview: "```css\n--accent: blue;\n```",
    } as never;
    const session = await createSession({ script: [ask(input), textReply("Blue, noted.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Pick a colour" });
    await device.waitForEvent("question_prompt");
    const ack = await device.request({
      type: "submit_answers",
      toolCallId: "toolu_ask",
      answers: { [COLOUR_QUESTION]: "Blue" },
      annotations: { [COLOUR_QUESTION]: { notes: "but a darker shade" } },
    });
    expect(ack).toMatchObject({
      ok: true,
      result: {
        response: {
          annotations: {
            [COLOUR_QUESTION]: { notes: "but a darker shade", preview: "```css\n--accent: blue;\n```" },
          },
        },
      },
    });
    await device.waitForDone();
    expect(toolResultsOf(lastMessage((await modelRequests(session))[1]))[0]?.content).toBe(
      `User has answered your questions: "${COLOUR_QUESTION}"="Blue" user notes: but a darker shade. You can now continue with the user's answers in mind.`,
    );
    device.close();
  });

  it("refuses a note over the limit and changes nothing", async () => {
    const session = await createSession({ script: [ask(), textReply("Done.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Pick a colour" });
    await device.waitForEvent("question_prompt");
    const before = await dumpStorage(stubOf(session));
    const ack = await device.request({
      type: "submit_answers",
      toolCallId: "toolu_ask",
      answers: { "0": "Blue" },
      annotations: { "0": { notes: "x".repeat(MAX_NOTE_CHARS + 1) } },
    });
    expect(ack).toMatchObject({
      ok: false,
      error: {
        code: "invalid_answer",
        message: `The note on "${COLOUR_QUESTION}" is longer than ${MAX_NOTE_CHARS} characters`,
      },
    });
    expect(await dumpStorage(stubOf(session))).toEqual(before);
    device.close();
  });

  it("refuses a preview over its size limit as an error result the model can fix", async () => {
    const input = colourQuestion();
    input.questions[0]!.options[1] = {
      ...input.questions[0]!.options[1]!,
      preview: "x".repeat(MAX_PREVIEW_CHARS + 1),
    } as never;
    const session = await createSession({ script: [ask(input), textReply("I will shorten it.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Pick a colour" });
    await device.waitForDone();
    expect(device.event("question_prompt")).toBeUndefined();
    expect(toolResultsOf(lastMessage((await modelRequests(session))[1]))[0]).toEqual({
      toolUseId: "toolu_ask",
      content: `Invalid AskUserQuestion input: questions.0.options.1.preview: preview must be at most ${MAX_PREVIEW_CHARS} characters`,
      isError: true,
    });
    device.close();
  });
});

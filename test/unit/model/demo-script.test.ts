import { describe, expect, it } from "vitest";
import { createDemoModel, DEMO_FORM, DEMO_QUESTIONS } from "../../../src/model/demo-script";
import type { ContentBlockParam, MessageParam } from "../../../src/model/model-client";
import { type AssembledMessage, call, request } from "./assemble-events";

const ANSWERS =
  'User has answered your questions: "Which part of Parley should I show you next?"="Approvals", ' +
  '"Which devices are you using?"="Laptop, Phone". You can now continue with the user\'s answers in mind.';

/** A conversation with the demo model, driven by hand the way the agent loop would drive it. */
class Conversation {
  readonly messages: MessageParam[] = [];
  #calls = 0;

  /** Sends the transcript to a fresh demo model, as after a restart, and records its reply. */
  async reply(): Promise<AssembledMessage> {
    const model = createDemoModel(() => this.#calls++);
    const message = await call(model, request({ model: "demo", messages: this.messages }));
    this.messages.push({
      role: "assistant",
      content: message.content.map(
        (block): ContentBlockParam =>
          block.type === "text"
            ? { type: "text", text: block.text }
            : { type: "tool_use", id: block.id, name: block.name, input: block.input },
      ),
    });
    return message;
  }

  say(text: string): this {
    this.messages.push({ role: "user", content: [{ type: "text", text }] });
    return this;
  }

  /** Answers the last assistant message's only tool call. */
  result(content: string, isError = false): this {
    const last = this.messages.at(-1);
    const call =
      last && typeof last.content !== "string" ? last.content.find((b) => b.type === "tool_use") : undefined;
    if (call?.type !== "tool_use") throw new Error("the demo did not call a tool");
    this.messages.push({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: call.id, content, ...(isError ? { is_error: true } : {}) },
      ],
    });
    return this;
  }
}

const textOf = (message: AssembledMessage) =>
  message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(" ");
const toolOf = (message: AssembledMessage) => message.content.find((b) => b.type === "tool_use");

/** Plays steps (a)–(c): the conversation then waits for the outcome of the notes_write call. */
async function upToTheNote(): Promise<{ chat: Conversation; asked: AssembledMessage }> {
  const chat = new Conversation().say("Hi, what is this?");
  await chat.reply();
  await chat.result("2026-05-01T12:00:00.000Z (Friday)").reply();
  const asked = await chat.result(ANSWERS).reply();
  return { chat, asked };
}

describe("the demo model", () => {
  it("introduces itself as the offline demo and checks the time with a read-only tool", async () => {
    const message = await new Conversation().say("Hi, what is this?").reply();

    expect(textOf(message)).toContain("offline demo model");
    expect(toolOf(message)).toMatchObject({ name: "current_time", input: {} });
    expect(message.stopReason).toBe("tool_use");
  });

  it("tells the time it got, then asks the two demo questions with AskUserQuestion", async () => {
    const chat = new Conversation().say("Hi");
    await chat.reply();
    const message = await chat.result("2026-05-01T12:00:00.000Z (Friday)").reply();

    expect(textOf(message)).toContain("2026-05-01T12:00:00.000Z (Friday)");
    expect(toolOf(message)).toMatchObject({ name: "AskUserQuestion", input: { questions: DEMO_QUESTIONS } });
    expect(DEMO_QUESTIONS.map((q) => [q.header, q.multiSelect, q.options.length])).toEqual([
      ["Next step", false, 4],
      ["Devices", true, 3],
    ]);
  });

  it("quotes the answers and asks to write a note that sums them up", async () => {
    const { asked } = await upToTheNote();

    expect(textOf(asked)).toContain('"Which part of Parley should I show you next?"="Approvals"');
    expect(textOf(asked)).toContain('"Which devices are you using?"="Laptop, Phone"');
    expect(toolOf(asked)).toMatchObject({
      name: "notes_write",
      input: { key: "demo", text: "Demo answers — Next step: Approvals; Devices: Laptop, Phone" },
    });
  });

  it("opens a form with every kind of field when the person picks Forms, and quotes what came back", async () => {
    const chat = new Conversation().say("Hi");
    await chat.reply();
    await chat.result("2026-05-01T12:00:00.000Z (Friday)").reply();
    const asked = await chat.result(ANSWERS.replace('="Approvals"', '="Forms"')).reply();
    expect(toolOf(asked)).toMatchObject({ name: "RequestUserInput", input: DEMO_FORM });
    const submitted = 'User accepted the form and submitted: {"name":"Ada","guests":2}';
    const done = await chat.result(submitted).reply();
    expect(textOf(done)).toContain(submitted);
    expect(toolOf(done)).toBeUndefined();
  });

  it("is overloaded twice when the person picks Outages, then recovers from the same transcript", async () => {
    const chat = new Conversation().say("Hi");
    await chat.reply();
    await chat.result("2026-05-01T12:00:00.000Z (Friday)").reply();
    chat.result(ANSWERS.replace('="Approvals"', '="Outages"'));
    const overloaded = { name: "ModelError", code: "overloaded", message: "Overloaded" };
    await expect(chat.reply()).rejects.toMatchObject(overloaded);
    await expect(chat.reply()).rejects.toMatchObject(overloaded);
    const back = await chat.reply();
    expect(textOf(back)).toMatch(/^I'm back\. The model was overloaded .* 2 times in a row/);
    expect(back.stopReason).toBe("end_turn");
    // A later outage tour in the same session fails twice again, counted from its own question.
    await chat.say("again").reply();
    await chat.result("12:00").reply();
    chat.result(ANSWERS.replace('="Approvals"', '="Outages"'));
    await expect(chat.reply()).rejects.toMatchObject(overloaded);
  });

  it("ends the tour saying the note was written once the person approves", async () => {
    const { chat } = await upToTheNote();
    const message = await chat.result("Saved note “demo”.").reply();

    expect(textOf(message)).toContain("saved");
    expect(toolOf(message)).toBeUndefined();
    expect(message.stopReason).toBe("end_turn");
  });

  it("says nothing was written and quotes the reason when the person denies the note", async () => {
    const { chat } = await upToTheNote();
    const message = await chat.result("User denied tool execution. Reason: not on a demo day", true).reply();

    expect(textOf(message)).toContain("denied");
    expect(textOf(message)).toContain("not on a demo day");
    expect(message.stopReason).toBe("end_turn");
  });

  it("says the approval timed out when nobody answered in time", async () => {
    const { chat } = await upToTheNote();
    const message = await chat.result("Tool approval timed out after 10 minutes", true).reply();

    expect(textOf(message)).toContain("timed out");
    expect(message.stopReason).toBe("end_turn");
  });

  it("explains an unanswered question instead of writing a note", async () => {
    const chat = new Conversation().say("Hi");
    await chat.reply();
    await chat.result("12:00").reply();
    const message = await chat.result("User did not respond within 10 minutes", true).reply();

    expect(textOf(message)).toContain("did not respond within 10 minutes");
    expect(toolOf(message)).toBeUndefined();
    expect(message.stopReason).toBe("end_turn");
  });

  it("starts the tour again on the next user message", async () => {
    const { chat } = await upToTheNote();
    await chat.result("Saved.").reply();
    const message = await chat.say("Again please").reply();

    expect(textOf(message)).toContain("Again please");
    expect(toolOf(message)).toMatchObject({ name: "current_time" });
  });

  it("gives every tool call of a session a distinct id", async () => {
    const { chat } = await upToTheNote();
    const ids = chat.messages.flatMap((m) =>
      typeof m.content === "string" ? [] : m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])),
    );
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it("answers politely and ends the turn when the transcript is not one it knows", async () => {
    const strangers: MessageParam[][] = [
      [],
      [{ role: "assistant", content: "I spoke last" }],
      [
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_x", name: "fetch_url", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_x", content: "<html>" }] },
      ],
    ];
    for (const messages of strangers) {
      const message = await call(createDemoModel(), request({ messages }));
      expect(toolOf(message)).toBeUndefined();
      expect(message.stopReason).toBe("end_turn");
      expect(textOf(message)).toContain("demo model");
    }
  });

  it("is marked as the demo model", () => {
    expect(createDemoModel()).toMatchObject({ name: "demo", demo: true });
  });
});

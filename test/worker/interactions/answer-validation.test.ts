// Answers to AskUserQuestion in every form a device may send: each accepted form reaches the model
// in the SDK's words, and each malformed one is refused precisely while the card stays open.
import { describe, expect, it } from "vitest";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import {
  answeredResult,
  dumpStorage,
  expectAlarmAt,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  toolResultsOf,
} from "./interaction-fixtures";

const ASK = "toolu_ask_project";
const DATABASE = "Which database should the project use?";
const FEATURES = "Which features should ship first?";

const questions = {
  questions: [
    {
      question: DATABASE,
      header: "Database",
      options: [
        { label: "Postgres", description: "A server, rich features." },
        { label: "SQLite", description: "A file, nothing to run." },
      ],
      multiSelect: false,
    },
    {
      question: FEATURES,
      header: "Features",
      options: [
        { label: "Search", description: "Find anything." },
        { label: "Export", description: "CSV and JSON." },
        { label: "Sharing", description: "Links for others." },
      ],
      multiSelect: true,
    },
  ],
};

async function pausedAtQuestions() {
  const session = await createSession({
    script: [toolReply([{ name: "AskUserQuestion", id: ASK, input: questions }]), textReply("Noted.")],
  });
  const stub = stubOf(session);
  const device = await connect(session, { device: "phone" });
  await device.request({ type: "send_message", text: "Plan the project with me" });
  const prompt = await device.waitForEvent("question_prompt");
  await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
  return { session, stub, device, prompt };
}

describe("answers that do not fit the questions", () => {
  const rejected: Array<{ rule: string; answers: Record<string, unknown>; says: string }> = [
    {
      rule: "a question is left unanswered",
      answers: { [DATABASE]: "SQLite" },
      says: `no answer for "${FEATURES}"`,
    },
    {
      rule: "a key names no question",
      answers: { [DATABASE]: "SQLite", [FEATURES]: "Search", "Which editor?": "Vim" },
      says: 'unknown question key "Which editor?"',
    },
    {
      rule: "an index is out of range",
      answers: { "0": "SQLite", "1": "Search", "2": "Vim" },
      says: 'unknown question key "2"',
    },
    {
      rule: "an answer is empty",
      answers: { [DATABASE]: "  ", [FEATURES]: "Search" },
      says: `the answer to "${DATABASE}" is empty`,
    },
    {
      rule: "a multi-select answer is an empty list",
      answers: { [DATABASE]: "SQLite", [FEATURES]: [] },
      says: `the answer to "${FEATURES}" is empty`,
    },
    {
      rule: "a single-select question gets two labels",
      answers: { [DATABASE]: ["Postgres", "SQLite"], [FEATURES]: "Search" },
      says: `"${DATABASE}" takes a single answer, got 2`,
    },
    {
      rule: "a multi-select answer has two free-text values",
      answers: { [DATABASE]: "SQLite", [FEATURES]: ["Search", "Dark mode", "Offline"] },
      says: 'only one free-text "Other" answer is allowed',
    },
    {
      rule: "one question is answered twice",
      answers: { [DATABASE]: "SQLite", "0": "Postgres", [FEATURES]: "Search" },
      says: `"${DATABASE}" is answered twice`,
    },
  ];

  it.each(rejected)("refuses answers where $rule, and keeps the question open", async ({ answers, says }) => {
    const { session, stub, device, prompt } = await pausedAtQuestions();
    const before = await dumpStorage(stub);

    const ack = await device.request({ type: "submit_answers", toolCallId: ASK, answers });
    expect(ack.ok).toBe(false);
    expect(ack.error?.code).toBe("invalid_answer");
    expect(ack.error?.message.toLowerCase()).toContain(says.toLowerCase());
    const overHttp = await post(session, "submit-answers", { toolCallId: ASK, answers });
    expect(overHttp.status).toBe(400);
    expect(overHttp.body.error?.code).toBe("invalid_answer");

    expect(await dumpStorage(stub)).toEqual(before);
    expect(device.event("interaction_resolved")).toBeUndefined();
    await expectAlarmAt(stub, prompt.data.expiresAt);
    // The question can still be answered properly.
    const fixed = await device.request({
      type: "submit_answers",
      toolCallId: ASK,
      answers: { [DATABASE]: "SQLite", [FEATURES]: ["Search"] },
    });
    expect(fixed.ok).toBe(true);
    await device.waitForDone();
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("refuses an approval, a denial or a generic response aimed at a question", async () => {
    const { session, stub, device, prompt } = await pausedAtQuestions();
    const approve = await device.request({ type: "approve", toolCallId: ASK });
    expect(approve.error?.code).toBe("wrong_interaction_kind");
    const deny = await post(session, "deny", { toolCallId: ASK, reason: "no" });
    expect(deny.status).toBe(400);
    expect(deny.body.error?.code).toBe("wrong_interaction_kind");
    // `respond` addresses any kind, so the question's own rules apply.
    const respond = await device.request({
      type: "respond",
      toolCallId: ASK,
      response: { decision: "approve" },
    });
    expect(respond.error?.code).toBe("invalid_answer");
    expect(device.event("interaction_resolved")).toBeUndefined();
    await expectAlarmAt(stub, prompt.data.expiresAt);
    device.close();
  });

  it("refuses answers to a question an approval card was opened for, and answers to no card at all", async () => {
    const session = await createSession({
      script: [
        toolReply([{ name: "notes_write", id: "toolu_write_plan", input: { key: "plan", text: "Friday" } }]),
        textReply("Ok."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save the plan" });
    const prompt = await device.waitForEvent("approval_required");

    const wrongKind = await device.request({
      type: "submit_answers",
      toolCallId: "toolu_write_plan",
      answers: { "0": "Yes" },
    });
    expect(wrongKind.error?.code).toBe("wrong_interaction_kind");
    const unknown = await device.request({ type: "approve", toolCallId: "toolu_no_such_call" });
    expect(unknown.error?.code).toBe("unknown_interaction");
    const unknownOverHttp = await post(session, "approve", { toolCallId: "toolu_no_such_call" });
    expect(unknownOverHttp.status).toBe(404);
    expect(unknownOverHttp.body.error?.code).toBe("unknown_interaction");
    const unknownAnswer = await post(session, "submit-answers", {
      toolCallId: "toolu_no_such_call",
      answers: { "0": "Yes" },
    });
    expect(unknownAnswer.status).toBe(404);

    expect(device.event("interaction_resolved")).toBeUndefined();
    await expectAlarmAt(stub, prompt.data.expiresAt);
    device.close();
  });
});

describe("answers in every accepted form", () => {
  const accepted: Array<{
    form: string;
    answers: Record<string, unknown>;
    database: string;
    features: string;
  }> = [
    {
      form: "keyed by question text",
      answers: { [DATABASE]: "Postgres", [FEATURES]: ["Search"] },
      database: "Postgres",
      features: "Search",
    },
    {
      form: 'keyed by index "0" and "1"',
      answers: { "0": "SQLite", "1": ["Export"] },
      database: "SQLite",
      features: "Export",
    },
    {
      form: "with a multi-select answer as a list of labels",
      answers: { "0": "SQLite", [FEATURES]: ["Sharing", "Search"] },
      database: "SQLite",
      features: "Search, Sharing",
    },
    {
      form: "with a multi-select answer as a joined string",
      answers: { "0": "SQLite", [FEATURES]: "Search, Export" },
      database: "SQLite",
      features: "Search, Export",
    },
    {
      form: 'with an "Other" text for the single-select question',
      answers: { [DATABASE]: "MySQL, because the team knows it", "1": ["Search"] },
      database: "MySQL, because the team knows it",
      features: "Search",
    },
    {
      form: 'with labels and an "Other" text for the multi-select question',
      answers: { "0": "Postgres", "1": ["Export", "Audit log"] },
      database: "Postgres",
      features: "Export, Audit log",
    },
  ];

  it.each(accepted)("gives the model the answers $form", async ({ answers, database, features }) => {
    const { stub, device } = await pausedAtQuestions();
    const ack = await device.request({ type: "submit_answers", toolCallId: ASK, answers });
    expect(ack).toMatchObject({
      ok: true,
      result: { outcome: "answered", response: { answers: { [DATABASE]: database, [FEATURES]: features } } },
    });
    await device.waitForDone();
    expect(toolResultsOf(lastMessage((await modelRequests(stub))[1]))).toEqual([
      {
        toolUseId: ASK,
        content: answeredResult([
          [DATABASE, database],
          [FEATURES, features],
        ]),
        isError: false,
      },
    ]);
    await expectAlarmAt(stub, null);
    device.close();
  });
});

describe("a question the model asks wrongly", () => {
  it("gives the model an error it can correct instead of showing anyone a broken card", async () => {
    const broken = {
      questions: [
        {
          question: DATABASE,
          header: "A header far too long",
          options: [{ label: "Only one", description: "" }],
        },
      ],
    };
    const session = await createSession({
      script: [
        toolReply([{ name: "AskUserQuestion", id: "toolu_bad_ask", input: broken }]),
        textReply("Let me ask properly."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Plan the project with me" });
    await device.waitForDone();
    expect(device.event("question_prompt")).toBeUndefined();
    const [result] = toolResultsOf(lastMessage((await modelRequests(stub))[1]));
    expect(result).toMatchObject({ toolUseId: "toolu_bad_ask", isError: true });
    expect(result?.content).toContain("Invalid AskUserQuestion input");
    expect(result?.content).toContain("header");
    expect(result?.content).toContain("options");
    await expectAlarmAt(stub, null);
    device.close();
  });
});

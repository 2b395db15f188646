// A delegated agent runs while its parent's sibling calls still wait for a person, in the Workers
// runtime: the child starts at once, the parent's barrier holds, and losing the instance at each
// state in between resumes exactly once with transcripts the Messages API accepts.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ModelRequest, ToolResultBlockParam } from "../../../src/model/model-client";
import type { EventsPage, SessionEvent } from "../../../src/protocol";
import {
  api,
  type CreatedSession,
  connect,
  createSession,
  ORIGIN,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import { SseReader } from "../../helpers/sse-reader";
import { eventsOf, expectValidTranscript, modelRequests, sqlRows, stubOf } from "./agent-harness";

const delegate = (id: string, agent: string, prompt = "Help, please.") => ({
  id,
  name: "Agent",
  input: { description: `Ask ${agent}`, prompt, subagent_type: agent },
});
const complete = (id: string, result: string) => ({ id, name: "complete", input: { result } });
const write = { id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } };
const ask = (id: string, question: string) => ({
  id,
  name: "AskUserQuestion",
  input: {
    questions: [
      {
        question,
        header: "Pick",
        multiSelect: false,
        options: [
          { label: "3.12", description: "Older" },
          { label: "3.13", description: "Newer" },
        ],
      },
    ],
  },
});
const MAIN = { frameId: "main", agent: "main", depth: 0 };

function lastResults(request: ModelRequest | undefined): Array<[string, boolean]> {
  const content = (request?.messages.at(-1)?.content ?? []) as ToolResultBlockParam[];
  return content.filter((b) => b.type === "tool_result").map((b) => [b.tool_use_id, b.is_error ?? false]);
}

/** Every frame's stored transcript is one the Messages API accepts. */
async function expectStoredTranscriptsValid(session: CreatedSession): Promise<void> {
  const rows = await sqlRows<{ frame_id: string; role: string; content: string }>(
    session,
    "SELECT frame_id, role, content FROM messages ORDER BY id",
  );
  for (const messages of Map.groupBy(rows, (row) => row.frame_id).values()) {
    expectValidTranscript(
      messages.map((row) => ({ role: row.role as "user", content: JSON.parse(row.content) })),
    );
  }
}

describe("a delegated agent beside its parent's open cards, across eviction", () => {
  it("re-issues the child's lost model call while the parent's approval is open, then the approval resumes the parent", async () => {
    const session = await createSession({
      script: [
        toolReply([write, delegate("toolu_d", "researcher", "Find it.")]),
        textReply("Lost in the crash, this text", { stallAfterEvents: 3 }),
        toolReply([complete("toolu_c", "found it")]),
        textReply("Main resumes with both."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    const card = await device.waitForEvent("approval_required");
    expect(card.data).toMatchObject(MAIN);
    const lost = await device.waitForEvent("text_delta", (e) => e.data.text.includes("Lost"));
    expect(lost.data).toMatchObject({ agent: "researcher", depth: 1 });
    const stub = stubOf(session);
    await evictDurableObject(stub);
    // The parent's open card must not keep the watchdog from resuming the child.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await device.waitForEvent("agent_completed");
    await device.until(
      () => device.event("session_status", (e) => e.data.status === "awaiting_input" && e.seq > lost.seq),
      "awaiting",
    );
    expect(eventsOf(device, "turn_restarted")).toHaveLength(1);

    expect(await device.request({ type: "approve", toolCallId: "toolu_w" })).toMatchObject({ ok: true });
    await device.waitForDone();
    const [child, main] = await modelRequests(session);
    expect(child?.messages).toEqual([
      { role: "user", content: [expect.objectContaining({ type: "text", text: "Find it." })] },
    ]);
    expect(lastResults(main)).toEqual([
      ["toolu_w", false],
      ["toolu_d", false],
    ]);
    expect(eventsOf(device, "agent_started")).toHaveLength(1);
    expect(await sqlRows(session, "SELECT key, text FROM notes")).toEqual([{ key: "k", text: "v" }]);
    await expectStoredTranscriptsValid(session);
  });

  it("keeps an approval given while the child streams across eviction, and runs the approved tool once when main resumes", async () => {
    const session = await createSession({
      script: [
        toolReply([write, delegate("toolu_d", "researcher")]),
        textReply("Lost in the crash, this text", { stallAfterEvents: 3 }),
        toolReply([complete("toolu_c", "found it")]),
        textReply("Main resumes with both."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("text_delta", (e) => e.data.text.includes("Lost"));
    expect(await device.request({ type: "approve", toolCallId: "toolu_w" })).toMatchObject({ ok: true });
    const stub = stubOf(session);
    await evictDurableObject(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await device.waitForDone();
    expect(eventsOf(device, "turn_restarted")).toHaveLength(1);
    expect(eventsOf(device, "tool_result").filter((e) => e.data.toolCallId === "toolu_w")).toHaveLength(1);
    expect(await sqlRows(session, "SELECT key, text FROM notes")).toEqual([{ key: "k", text: "v" }]);
    const [, main] = await modelRequests(session);
    expect(lastResults(main)).toEqual([
      ["toolu_w", false],
      ["toolu_d", false],
    ]);
    await expectStoredTranscriptsValid(session);
  });

  it("keeps both frames' cards across eviction; the child's answer pops it, and after another eviction the parent's resumes main", async () => {
    const session = await createSession({
      script: [
        toolReply([write, delegate("toolu_d", "researcher")]),
        toolReply([ask("toolu_q", "Which version?")]),
        toolReply([complete("toolu_c", "3.13")]),
        textReply("Main resumes."),
      ],
    });
    const laptop = await connect(session, { device: "laptop" });
    await laptop.request({ type: "send_message", text: "go" });
    await laptop.waitForEvent("question_prompt");
    await evictDurableObject(stubOf(session));

    const phone = await connect(session, { device: "phone" });
    const frame = phone.hello?.snapshot.stack[0];
    expect(phone.hello?.snapshot.pending.map((p) => [p.toolCallId, p.agent, p.depth])).toEqual([
      ["toolu_w", "main", 0],
      ["toolu_q", "researcher", 1],
    ]);
    expect(phone.hello?.snapshot.status).toBe("awaiting_input");
    await phone.request({
      type: "submit_answers",
      toolCallId: "toolu_q",
      answers: { "Which version?": "3.13" },
    });
    await phone.waitForEvent("agent_completed");
    await phone.until(
      () => phone.event("session_status", (e) => e.data.status === "awaiting_input"),
      "awaiting",
    );
    await evictDurableObject(stubOf(session));

    const third = await connect(session);
    expect(third.hello?.snapshot.stack).toEqual([]);
    expect(third.hello?.snapshot.pending.map((p) => p.toolCallId)).toEqual(["toolu_w"]);
    await third.request({ type: "approve", toolCallId: "toolu_w" });
    await third.waitForDone();
    const [main] = await modelRequests(session);
    expect(lastResults(main)).toEqual([
      ["toolu_w", false],
      ["toolu_d", false],
    ]);
    const started = await sqlRows<{ n: number }>(session, "SELECT COUNT(*) AS n FROM frames");
    expect(started).toEqual([{ n: 1 }]);
    expect(eventsOf(third, "tool_result").find((e) => e.data.toolCallId === "toolu_d")?.data).toMatchObject(
      MAIN,
    );
    expect(eventsOf(phone, "tool_result").find((e) => e.data.toolCallId === "toolu_q")?.data).toMatchObject({
      frameId: frame?.frameId,
      agent: "researcher",
    });
    await expectStoredTranscriptsValid(session);
  });

  it("routes a message to the child waiting for the person, not to the parent's open question, across eviction", async () => {
    const session = await createSession({
      script: [
        toolReply([ask("toolu_q", "Main asks: which version?"), delegate("toolu_d", "researcher")]),
        textReply("Researcher asks: what for?"),
        toolReply([complete("toolu_c", "for a talk")]),
        textReply("Main resumes."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    await evictDurableObject(stubOf(session));

    const again = await connect(session);
    expect(again.hello?.snapshot).toMatchObject({ status: "idle", stack: [{ agent: "researcher" }] });
    const sent = await again.request({ type: "send_message", text: "for a talk" });
    expect(sent).toMatchObject({ ok: true, result: { queued: false } });
    expect((sent.result as { answered?: unknown }).answered).toBeUndefined();
    await again.waitForEvent("user_message", (e) => e.data.text === "for a talk");
    expect(again.event("user_message", (e) => e.data.text === "for a talk")?.data).toMatchObject({
      agent: "researcher",
      depth: 1,
    });
    await again.waitForEvent("agent_completed");
    await again.until(
      () => again.event("session_status", (e) => e.data.status === "awaiting_input"),
      "awaiting",
    );
    const [child] = await modelRequests(session);
    expect(JSON.stringify(child?.messages.at(-1))).toContain("for a talk");
    await evictDurableObject(stubOf(session));

    const third = await connect(session);
    // Back on top, main's own question reads the chat: this message answers it.
    const reply = await third.request({ type: "send_message", text: "3.13" });
    expect(reply).toMatchObject({ ok: true, result: { answered: ["toolu_q"] } });
    await third.waitForDone();
    const [main] = await modelRequests(session);
    expect(lastResults(main)).toEqual([
      ["toolu_q", false],
      ["toolu_d", false],
    ]);
    await expectStoredTranscriptsValid(session);
  });

  it("times out the parent's card by the alarm while the child's question waits, and the child carries on", async () => {
    const session = await createSession({
      interactionTimeoutMs: 60_000,
      script: [
        toolReply([write, delegate("toolu_d", "researcher")]),
        textReply("Tell me more first."),
        toolReply([ask("toolu_q", "Which version?")]),
        toolReply([complete("toolu_c", "3.13")]),
        textReply("The write lapsed; main resumes."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    const card = await device.waitForEvent("approval_required");
    await device.waitForDone();
    await advanceClock(session, { by: 1_000 });
    await device.request({ type: "send_message", text: "more" });
    const question = await device.waitForEvent("question_prompt");
    expect(question.data.expiresAt).toBeGreaterThan(card.data.expiresAt);
    await evictDurableObject(stubOf(session));
    await advanceClock(session, { at: card.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stubOf(session))).toBe(true);
    const again = await connect(session, { after: question.seq });
    await again.until(() => again.event("interaction_resolved"), "the approval's timeout");
    expect(again.event("interaction_resolved")?.data).toMatchObject({
      toolCallId: "toolu_w",
      outcome: "timed_out",
      ...MAIN,
    });
    expect((await connect(session)).hello?.snapshot.pending.map((p) => p.toolCallId)).toEqual(["toolu_q"]);

    await again.request({
      type: "submit_answers",
      toolCallId: "toolu_q",
      answers: { "Which version?": "3.13" },
    });
    await again.waitForDone();
    const [child, main] = await modelRequests(session);
    expect(lastResults(child)).toEqual([["toolu_q", false]]);
    expect(lastResults(main)).toEqual([
      ["toolu_w", true],
      ["toolu_d", false],
    ]);
    expect(await sqlRows(session, "SELECT key FROM notes")).toEqual([]);
    await expectStoredTranscriptsValid(session);
  });

  it("cancels after eviction: the child's card, the parent's card and the delegation each get one cancelled result", async () => {
    const session = await createSession({
      script: [
        toolReply([write, delegate("toolu_d", "researcher")]),
        toolReply([ask("toolu_q", "Which version?")]),
        textReply("Main, after the cancel."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("question_prompt");
    await evictDurableObject(stubOf(session));
    const again = await connect(session);
    expect(await again.request({ type: "cancel" })).toMatchObject({ ok: true });
    await again.waitForEvent("done", (e) => e.data.stopReason === "cancelled");
    expect(
      eventsOf(again, "interaction_resolved").map((e) => [e.data.toolCallId, e.data.outcome, e.data.agent]),
    ).toEqual([
      ["toolu_w", "cancelled", "main"],
      ["toolu_q", "cancelled", "researcher"],
    ]);
    const results = await sqlRows<{ tool_call_id: string }>(
      session,
      "SELECT tool_call_id FROM tool_results ORDER BY tool_call_id",
    );
    expect(results.map((r) => r.tool_call_id)).toEqual(["toolu_d", "toolu_q", "toolu_w"]);
    await again.request({ type: "send_message", text: "hello again" });
    await again.waitForDone(2);
    const [main] = await modelRequests(session);
    expectValidTranscript(main?.messages ?? []);
    expect(lastResults({ ...main, messages: main?.messages.slice(0, 3) } as ModelRequest)).toEqual([
      ["toolu_w", true],
      ["toolu_d", true],
    ]);
    await expectStoredTranscriptsValid(session);
  });

  it("gives HTTP and SSE readers who joined after the child started each event's agent, without folding", async () => {
    const session = await createSession({
      script: [
        toolReply([write, delegate("toolu_d", "researcher")]),
        textReply("Researcher here: what for?"),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    const started = device.event("agent_started")?.seq ?? 0;
    const frameId = device.event("agent_started")?.data.frameId;
    const mark = { frameId, agent: "researcher", depth: 1 };

    const response = await api("GET", `/api/sessions/${session.sessionId}/events?after=${started}`, {
      token: session.token,
    });
    const page = (await response.json()) as EventsPage;
    const later = page.events as SessionEvent[];
    expect(later.find((e) => e.type === "text_delta")?.data).toMatchObject(mark);

    const sse = new SseReader(
      await exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/events/stream?after=0`, {
        headers: { authorization: `Bearer ${session.token}` },
      }),
    );
    try {
      await sse.until(() => sse.events.some((e) => e.type === "done"), "done");
      const of = (type: SessionEvent["type"]) => sse.events.find((e) => e.type === type)?.data;
      expect(of("approval_required")).toMatchObject(MAIN);
      expect(of("tool_call_start")).toMatchObject(MAIN);
      expect(of("text_delta")).toMatchObject(mark);
    } finally {
      await sse.close();
    }
  });
});

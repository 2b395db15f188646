// Deadlines: unanswered cards time out through the alarm (after eviction too), a repeated alarm
// changes nothing, and the alarm is always the earliest deadline, the running turn's watchdog included.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import {
  colourQuestion,
  dumpStorage,
  eventsOf,
  expectAlarmAt,
  lastMessage,
  modelRequests,
  type SessionStub,
  stubOf,
  tableRows,
  toolResultsOf,
} from "./interaction-fixtures";

// Long enough that the platform never delivers the alarm by itself during a test: the tests move
// the object's clock past the deadline and deliver the alarm themselves.
const TIMEOUT_MS = 60_000;

/** Moves the object's clock past `at`: the deadline itself is under test. */
async function passDeadline(stub: SessionStub, at: number): Promise<void> {
  await advanceClock(stub, { at: at + 1 });
}

/** A second delivery of the same alarm (alarms are at-least-once) must not change anything. */
async function expectRepeatedAlarmChangesNothing(stub: SessionStub): Promise<void> {
  const before = await dumpStorage(stub);
  await deliverAlarm(stub);
  expect(await dumpStorage(stub)).toEqual(before);
  await expectAlarmAt(stub, null);
}

/** Takes the scheduled alarm away from the platform and returns when it was due. */
async function holdAlarm(stub: SessionStub): Promise<number | null> {
  return runInDurableObject(stub, async (_, state) => {
    const at = await state.storage.getAlarm();
    await state.storage.deleteAlarm();
    return at;
  });
}

/** Delivers an alarm as the platform does (what `runDurableObjectAlarm` does when one is scheduled). */
async function deliverAlarm(stub: SessionStub): Promise<void> {
  await runInDurableObject<SessionObject, void>(stub, (instance) => instance.alarm());
}

describe("an interaction nobody answers", () => {
  it("times a question out at its deadline after eviction and lets the model carry on", async () => {
    const ask = "toolu_ask_unanswered";
    const session = await createSession({
      interactionTimeoutMs: TIMEOUT_MS,
      script: [
        toolReply([{ name: "AskUserQuestion", id: ask, input: colourQuestion() }]),
        textReply("No answer, so I kept the current colour."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Choose a colour with me" });
    const prompt = await device.waitForEvent("question_prompt");
    expect(prompt.data.expiresAt).toBe(prompt.data.createdAt + TIMEOUT_MS);
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    await expectAlarmAt(stub, prompt.data.expiresAt);

    // Nobody is connected and the object is gone: the alarm alone must wake it.
    await evictDurableObject(stub, { webSockets: "close" });
    await passDeadline(stub, prompt.data.expiresAt);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const later = await connect(session, { after: device.seqs().at(-1) ?? 0 });
    await later.waitForDone();
    expect(later.event("interaction_resolved")?.data).toMatchObject({
      toolCallId: ask,
      outcome: "timed_out",
      resolvedBy: null,
    });
    const timedOut = `User did not respond within 1 minute`;
    expect(later.event("tool_result")?.data).toMatchObject({
      toolCallId: ask,
      content: timedOut,
      isError: true,
    });
    const requests = await modelRequests(stub);
    expect(requests).toHaveLength(1);
    expect(toolResultsOf(lastMessage(requests[0]))).toEqual([
      { toolUseId: ask, content: timedOut, isError: true },
    ]);
    await expectAlarmAt(stub, null);

    await expectRepeatedAlarmChangesNothing(stub);
    // Only the idle session's retention deadline is left; delivering it replays nothing.
    await runDurableObjectAlarm(stub);
    later.close();
  });

  it("times an approval out at its deadline while the socket hibernates, without running the tool", async () => {
    const write = "toolu_write_unapproved";
    const session = await createSession({
      interactionTimeoutMs: TIMEOUT_MS,
      script: [
        toolReply([{ name: "notes_write", id: write, input: { key: "plan", text: "Ship on Friday" } }]),
        textReply("The note was not saved."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Note the plan" });
    const prompt = await device.waitForEvent("approval_required");
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    // The test delivers this alarm itself, so it must keep the platform from delivering it first.
    expect(await holdAlarm(stub)).toBe(prompt.data.expiresAt);

    await evictDurableObject(stub, { webSockets: "hibernate" });
    await passDeadline(stub, prompt.data.expiresAt);
    await deliverAlarm(stub);

    // The hibernated socket is still there and hears the outcome live.
    await device.waitForDone();
    expect(device.event("interaction_resolved")?.data).toMatchObject({
      toolCallId: write,
      kind: "approval",
      outcome: "timed_out",
      resolvedBy: null,
    });
    const timedOut = `Tool approval timed out after 1 minute`;
    const requests = await modelRequests(stub);
    expect(toolResultsOf(lastMessage(requests.at(-1)))).toEqual([
      { toolUseId: write, content: timedOut, isError: true },
    ]);
    expect(await tableRows(stub, "SELECT key FROM notes")).toEqual([]);
    await expectAlarmAt(stub, null);

    const eventsBefore = device.events.length;
    await expectRepeatedAlarmChangesNothing(stub);
    expect(device.events.length).toBe(eventsBefore);
    device.close();
  });

  it("times out only the card that is due and re-arms the alarm for the one still open", async () => {
    const write = "toolu_write_still_open";
    const ask = "toolu_ask_due";
    const session = await createSession({
      script: [
        toolReply([
          { name: "notes_write", id: write, input: { key: "plan", text: "Ship on Friday" } },
          { name: "AskUserQuestion", id: ask, input: colourQuestion() },
        ]),
        textReply("Saved, and I kept the colour."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Save the plan and ask me the colour" });
    const approval = await device.waitForEvent("approval_required");
    await device.waitForEvent("question_prompt");
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    // Both cards of one batch open in the same instant; pretend the question was asked a while ago.
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec(
        `UPDATE interactions SET deadline = ? WHERE tool_call_id = ?`,
        Date.now() - 1,
        ask,
      );
    });

    await deliverAlarm(stub);

    await device.waitForEvent("interaction_resolved", (e) => e.data.toolCallId === ask);
    expect(eventsOf(device, "interaction_resolved").map((e) => [e.data.toolCallId, e.data.outcome])).toEqual([
      [ask, "timed_out"],
    ]);
    expect(await modelRequests(stub)).toHaveLength(1);
    await expectAlarmAt(stub, approval.data.expiresAt);
    const snapshot = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(await snapshot.json()).toMatchObject({
      status: "awaiting_input",
      pending: [{ toolCallId: write }],
    });

    await device.request({ type: "approve", toolCallId: write });
    await device.waitForDone();
    const results = toolResultsOf(lastMessage((await modelRequests(stub))[1]));
    expect(results.map((result) => [result.toolUseId, result.isError])).toEqual([
      [write, false],
      [ask, true],
    ]);
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("reports the turn as running when the last card times out while an approved tool still runs", async () => {
    const slowUrl = "https://slow.example.com/archive";
    let releasePage: () => void = () => {};
    const pageReleased = new Promise<void>((resolve) => {
      releasePage = resolve;
    });
    const realFetch = globalThis.fetch;
    const outbound = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (String(input instanceof Request ? input.url : input) !== slowUrl) return realFetch(input, init);
      await pageReleased;
      return new Response("The archive.", { headers: { "content-type": "text/plain" } });
    });
    try {
      const fetchCall = "toolu_fetch_slow";
      const ask = "toolu_ask_times_out";
      const session = await createSession({
        script: [
          toolReply([
            { name: "fetch_url", id: fetchCall, input: { url: slowUrl } },
            { name: "AskUserQuestion", id: ask, input: colourQuestion() },
          ]),
          textReply("Read it; no colour chosen."),
        ],
      });
      const stub = stubOf(session);
      const device = await connect(session);
      await device.request({ type: "send_message", text: "Read the archive and ask me the colour" });
      await device.waitForEvent("question_prompt");
      const paused = await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
      await device.request({ type: "approve", toolCallId: fetchCall });
      await device.until(() => outbound.mock.calls.length > 0, "the slow fetch to start");
      await runInDurableObject(stub, (_, state) => {
        state.storage.sql.exec(
          `UPDATE interactions SET deadline = ? WHERE tool_call_id = ?`,
          Date.now() - 1,
          ask,
        );
      });

      await deliverAlarm(stub);

      await device.waitForEvent("session_status", (e) => e.data.status === "running" && e.seq > paused.seq);
      const snapshot = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
      expect(await snapshot.json()).toMatchObject({ status: "running", pending: [] });
      releasePage();
      await device.waitForDone();
      const results = toolResultsOf(lastMessage((await modelRequests(stub))[1]));
      expect(results.map((result) => [result.toolUseId, result.isError])).toEqual([
        [fetchCall, false],
        [ask, true],
      ]);
      await expectAlarmAt(stub, null);
      device.close();
    } finally {
      releasePage();
      outbound.mockRestore();
    }
  });

  it("leaves an interaction pending when the alarm arrives before its deadline", async () => {
    const ask = "toolu_ask_early";
    const session = await createSession({
      script: [toolReply([{ name: "AskUserQuestion", id: ask, input: colourQuestion() }]), textReply("Ok.")],
    });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Choose a colour with me" });
    const prompt = await device.waitForEvent("question_prompt");
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    const before = await dumpStorage(stub);
    const seen = device.events.length;

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect(await dumpStorage(stub)).toEqual(before);
    expect(device.events.length).toBe(seen);
    await expectAlarmAt(stub, prompt.data.expiresAt);
    device.close();
  });
});

describe("the watchdog of a running turn", () => {
  it("is the alarm while the model streams, and is cleared when the turn pauses for a person", async () => {
    const ask = "toolu_ask_after_stall";
    const session = await createSession({
      script: [
        // A few slow stream events keep the model call in flight while the alarm is read.
        {
          ...toolReply([{ name: "AskUserQuestion", id: ask, input: colourQuestion() }]),
          paceMs: 80,
          textChunkSize: 100_000,
        },
        textReply("Ok."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Choose a colour with me" });
    await device.waitForEvent("turn_started");

    const running = await watchdogAndAlarm(stub);
    expect(running.watchdog).not.toBeNull();
    expect(running.alarm).toBe(running.watchdog);
    expect(running.watchdog).toBeGreaterThan(Date.now() + 60_000);

    const prompt = await device.waitForEvent("question_prompt");
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    expect(await watchdogAndAlarm(stub)).toEqual({ watchdog: null, alarm: prompt.data.expiresAt });
    device.close();
  });

  it("is cleared with the turn when the turn is cancelled while the model streams", async () => {
    const session = await createSession({ script: [{ ...textReply("Thinking…"), stallAfterEvents: 2 }] });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Think hard" });
    await device.waitForEvent("turn_started");
    const running = await watchdogAndAlarm(stub);
    expect(running.alarm).toBe(running.watchdog);

    expect(await device.request({ type: "cancel" })).toMatchObject({ ok: true });
    await device.waitForDone();
    const after = await watchdogAndAlarm(stub);
    expect(after.watchdog).toBeNull();
    // What is left is the idle session's retention deadline, weeks away.
    expect(after.alarm).toBeGreaterThan(Date.now() + 28 * 24 * 60 * 60 * 1000);
    await device.waitForEvent("session_status", (e) => e.data.status === "idle");
    device.close();
  });
});

async function watchdogAndAlarm(stub: SessionStub) {
  return runInDurableObject(stub, async (_, state) => {
    const row = state.storage.sql
      .exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'watchdog_at'`)
      .toArray()[0];
    return {
      watchdog: row ? (JSON.parse(row.value) as number) : null,
      alarm: await state.storage.getAlarm(),
    };
  });
}

// Approving and denying tool calls, "always allow", the four permission modes, and a mode changed
// mid-turn: what runs, what asks, what the model is told, and where the alarm stands.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import type { PermissionMode } from "../../../src/protocol";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
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

const PAGE_URL = "https://docs.example.com/release-notes";
const PAGE_TEXT = "Release notes: version 2 ships on Friday.";

const SLOW_URL = "https://slow.example.com/archive";

let outboundFetch: MockInstance<typeof fetch>;
// The response for SLOW_URL is held until a test releases it.
let slowPageReleased: Promise<void>;
let releaseSlowPage: () => void;

beforeEach(() => {
  slowPageReleased = new Promise((resolve) => {
    releaseSlowPage = resolve;
  });
  // The Durable Object runs in this isolate, so this also answers the fetch_url tool's requests.
  const realFetch = globalThis.fetch;
  outboundFetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === SLOW_URL) await slowPageReleased;
    else if (url !== PAGE_URL) return realFetch(input, init);
    return new Response(PAGE_TEXT, { headers: { "content-type": "text/plain" } });
  });
});

afterEach(() => {
  outboundFetch.mockRestore();
});

function writeCall(id: string, text = "Ship on Friday") {
  return { name: "notes_write", id, input: { key: "plan", text } };
}

function fetchCall(id: string) {
  return { name: "fetch_url", id, input: { url: PAGE_URL } };
}

function fetchesOfPage(): number {
  return outboundFetch.mock.calls.filter(([input]) => String(input) === PAGE_URL).length;
}

async function notes(stub: ReturnType<typeof stubOf>) {
  return tableRows(stub, "SELECT key, text FROM notes ORDER BY key");
}

describe("approving and denying a tool call", () => {
  it("lets the first of two devices decide; the other gets 409 with the winner and nothing changes", async () => {
    const session = await createSession({
      script: [toolReply([writeCall("toolu_race")]), textReply("Done.")],
    });
    const stub = stubOf(session);
    const laptop = await connect(session, { device: "laptop" });
    const phone = await connect(session, { device: "phone" });
    await laptop.request({ type: "send_message", text: "Save the plan" });
    await phone.waitForEvent("approval_required");
    const [first, second] = await Promise.all([
      laptop.request({ type: "approve", toolCallId: "toolu_race" }),
      phone.request({ type: "respond", toolCallId: "toolu_race", response: { decision: "deny" } }),
    ]);
    const [winner, loser] = first.ok ? [first, second] : [second, first];
    expect(winner.ok).toBe(true);
    expect(loser.error).toMatchObject({ code: "already_resolved", resolution: winner.result as object });
    await laptop.waitForDone();
    expect(eventsOf(laptop, "interaction_resolved")).toHaveLength(1);
    expect(await notes(stub)).toEqual(first.ok ? [{ key: "plan", text: "Ship on Friday" }] : []);
    laptop.close();
    phone.close();
  });

  it("tells the model the reason a person gave for denying, and does not run the tool", async () => {
    const write = "toolu_denied_write";
    const session = await createSession({
      script: [toolReply([writeCall(write)]), textReply("Understood, not saving it.")],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Save the plan" });
    const prompt = await device.waitForEvent("approval_required");
    expect(prompt.data.request).toMatchObject({
      toolName: "notes_write",
      input: { key: "plan", text: "Ship on Friday" },
      risk: "edit",
    });
    await expectAlarmAt(stub, prompt.data.expiresAt);

    const denied = await post(
      session,
      "deny",
      { toolCallId: write, reason: "Not before the review" },
      "laptop",
    );
    expect(denied.status).toBe(200);
    expect(denied.body.result).toMatchObject({
      outcome: "denied",
      resolvedBy: "laptop",
      response: { decision: "deny", reason: "Not before the review" },
    });
    await device.waitForDone();
    expect(toolResultsOf(lastMessage((await modelRequests(stub))[1]))).toEqual([
      {
        toolUseId: write,
        content: "User denied tool execution. Reason: Not before the review",
        isError: true,
      },
    ]);
    expect(await notes(stub)).toEqual([]);
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("runs the tool a person approved and gives the model its output", async () => {
    const write = "toolu_approved_write";
    const session = await createSession({ script: [toolReply([writeCall(write)]), textReply("Saved.")] });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Save the plan" });
    await device.waitForEvent("approval_required");

    const ack = await device.request({ type: "approve", toolCallId: write });
    expect(ack).toMatchObject({ ok: true, result: { outcome: "approved", resolvedBy: "phone" } });
    await device.waitForDone();
    expect(await notes(stub)).toEqual([{ key: "plan", text: "Ship on Friday" }]);
    expect(device.event("tool_result")?.data).toMatchObject({ toolCallId: write, isError: false });
    expect(toolResultsOf(lastMessage((await modelRequests(stub))[1]))).toEqual([
      { toolUseId: write, content: 'Saved note "plan" (14 characters).', isError: false },
    ]);
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("stops asking about a tool a person always allowed, but still asks about other tools", async () => {
    const session = await createSession({
      script: [
        toolReply([writeCall("toolu_first_write")]),
        toolReply([writeCall("toolu_second_write", "Ship on Monday")]),
        toolReply([fetchCall("toolu_fetch_notes")]),
        textReply("Done."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Save the plan twice, then read the notes page" });
    await device.waitForEvent("approval_required");
    await device.request({ type: "approve", toolCallId: "toolu_first_write", remember: true });

    const fetchPrompt = await device.waitForEvent(
      "approval_required",
      (e) => e.data.toolName === "fetch_url",
    );
    expect(eventsOf(device, "approval_required").map((e) => e.data.toolCallId)).toEqual([
      "toolu_first_write",
      "toolu_fetch_notes",
    ]);
    expect(await notes(stub)).toEqual([{ key: "plan", text: "Ship on Monday" }]);
    expect(fetchesOfPage()).toBe(0);
    await expectAlarmAt(stub, fetchPrompt.data.expiresAt);

    await device.request({ type: "approve", toolCallId: "toolu_fetch_notes" });
    await device.waitForDone();
    expect(fetchesOfPage()).toBe(1);
    const [fetched] = toolResultsOf(lastMessage((await modelRequests(stub))[3]));
    expect(fetched).toMatchObject({ toolUseId: "toolu_fetch_notes", isError: false });
    expect(fetched?.content).toContain(PAGE_TEXT);
    await expectAlarmAt(stub, null);
    device.close();
  });
  it("leaves the other open cards of a tool open when a person always allows it", async () => {
    const session = await createSession({
      script: [
        toolReply([writeCall("toolu_write_a"), writeCall("toolu_write_b", "Ship on Monday")]),
        textReply("Saved both."),
      ],
    });
    const stub = stubOf(session);
    const laptop = await connect(session, { device: "laptop" });
    await laptop.request({ type: "send_message", text: "Save two plans" });
    await laptop.until(() => eventsOf(laptop, "approval_required").length === 2, "two approval cards");
    await laptop.request({ type: "approve", toolCallId: "toolu_write_a", remember: true });
    // The second card, with arguments the person has not decided on, is still theirs to decide.
    await laptop.until(() => eventsOf(laptop, "interaction_resolved").length === 1, "one receipt");
    expect(eventsOf(laptop, "interaction_resolved")[0]?.data.toolCallId).toBe("toolu_write_a");
    const snapshot = (await (
      await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
    ).json()) as {
      pending: unknown[];
    };
    expect(snapshot.pending).toHaveLength(1);
    await laptop.request({ type: "deny", toolCallId: "toolu_write_b" });

    await laptop.waitForDone();
    const receipts = eventsOf(laptop, "interaction_resolved").map((e) => [
      e.data.toolCallId,
      e.data.outcome,
      e.data.resolvedBy,
    ]);
    expect(receipts).toEqual([
      ["toolu_write_a", "approved", "laptop"],
      ["toolu_write_b", "denied", "laptop"],
    ]);
    expect(toolResultsOf(lastMessage((await modelRequests(stub))[1])).map((r) => r.isError)).toEqual([
      false,
      true,
    ]);
    await expectAlarmAt(stub, null);
    laptop.close();
  });

  it("refuses an approval that arrives after the deadline and times the card out instead", async () => {
    const session = await createSession({
      interactionTimeoutMs: 60_000,
      script: [toolReply([writeCall("toolu_late")]), textReply("Ok.")],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Save the plan" });
    const prompt = await device.waitForEvent("approval_required");
    // Hold the platform's alarm back so the late answer, not the alarm, meets the deadline first.
    await runInDurableObject(stub, (_instance, state) => state.storage.deleteAlarm());
    await advanceClock(stub, { at: prompt.data.expiresAt + 1 });

    const ack = await device.request({ type: "approve", toolCallId: "toolu_late" });
    expect(ack.error).toMatchObject({ code: "already_resolved", resolution: { outcome: "timed_out" } });
    await device.waitForDone();
    expect(await notes(stub)).toEqual([]);
    expect(toolResultsOf(lastMessage((await modelRequests(stub))[1]))[0]?.isError).toBe(true);
    device.close();
  });

  it("reports the turn as running once the last card is answered, even while an approved tool still runs", async () => {
    const session = await createSession({
      script: [
        toolReply([
          { name: "fetch_url", id: "toolu_slow_fetch", input: { url: SLOW_URL } },
          { name: "fetch_url", id: "toolu_quick_fetch", input: { url: PAGE_URL } },
        ]),
        textReply("Read both."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Read the archive and the notes page" });
    await device.until(() => eventsOf(device, "approval_required").length === 2, "two approval prompts");
    const paused = await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");

    await device.request({ type: "approve", toolCallId: "toolu_slow_fetch" });
    await device.until(
      () => outboundFetch.mock.calls.some(([input]) => String(input) === SLOW_URL),
      "the slow fetch",
    );
    await device.request({ type: "approve", toolCallId: "toolu_quick_fetch" });

    // Nothing waits for a person any more: every device must say the turn is working.
    await device.waitForEvent("session_status", (e) => e.data.status === "running" && e.seq > paused.seq);
    const snapshot = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(await snapshot.json()).toMatchObject({ status: "running", pending: [] });
    expect(device.event("tool_result")).toBeUndefined();
    const running = await runInDurableObject(stub, (_, state) => state.storage.getAlarm());
    expect(running).toBeGreaterThan(Date.now() + 60_000);

    releaseSlowPage();
    await device.waitForDone();
    expect(eventsOf(device, "tool_result").map((e) => [e.data.toolCallId, e.data.isError])).toEqual([
      ["toolu_slow_fetch", false],
      ["toolu_quick_fetch", false],
    ]);
    // Never "waiting for you" again once nothing is pending, and an answer is no crash.
    await device.waitForEvent("session_status", (e) => e.data.status === "idle");
    const statuses = eventsOf(device, "session_status").filter((e) => e.seq > paused.seq);
    expect(statuses.map((e) => e.data.status)).toEqual(["running", "idle"]);
    expect(device.event("turn_restarted")).toBeUndefined();
    await expectAlarmAt(stub, null);
    device.close();
  });
});

describe("permission modes", () => {
  const cases: Array<{
    mode: PermissionMode;
    asks: string[];
    runs: string[];
    deniedByMode: string[];
  }> = [
    { mode: "default", asks: ["toolu_mode_write", "toolu_mode_fetch"], runs: [], deniedByMode: [] },
    { mode: "acceptEdits", asks: ["toolu_mode_fetch"], runs: ["toolu_mode_write"], deniedByMode: [] },
    { mode: "plan", asks: [], runs: [], deniedByMode: ["toolu_mode_write", "toolu_mode_fetch"] },
    { mode: "bypassPermissions", asks: [], runs: ["toolu_mode_write", "toolu_mode_fetch"], deniedByMode: [] },
  ];

  it.each(cases)(
    "in $mode mode asks about $asks and runs $runs",
    async ({ mode, asks, runs, deniedByMode }) => {
      const session = await createSession({
        permissionMode: mode,
        script: [toolReply([writeCall("toolu_mode_write"), fetchCall("toolu_mode_fetch")]), textReply("Ok.")],
      });
      const stub = stubOf(session);
      const device = await connect(session, { device: "phone" });
      expect(device.hello?.snapshot.mode).toBe(mode);
      await device.request({ type: "send_message", text: "Save the plan and read the notes page" });
      if (asks.length > 0) {
        await device.until(
          () => eventsOf(device, "approval_required").length === asks.length,
          "approval prompts",
        );
        await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
        const prompts = eventsOf(device, "approval_required");
        expect(prompts.map((e) => e.data.toolCallId)).toEqual(asks);
        await expectAlarmAt(stub, Math.min(...prompts.map((e) => e.data.expiresAt)));
        for (const toolCallId of asks) await device.request({ type: "deny", toolCallId });
      }
      await device.waitForDone();
      expect(eventsOf(device, "approval_required").map((e) => e.data.toolCallId)).toEqual(asks);

      const results = toolResultsOf(lastMessage((await modelRequests(stub))[1]));
      expect(results.map((result) => result.toolUseId)).toEqual(["toolu_mode_write", "toolu_mode_fetch"]);
      for (const result of results) {
        if (runs.includes(result.toolUseId)) expect(result.isError).toBe(false);
        else if (deniedByMode.includes(result.toolUseId)) {
          expect(result).toMatchObject({ isError: true, content: expect.stringContaining('"plan"') });
        } else expect(result).toMatchObject({ isError: true, content: "User denied tool execution" });
      }
      expect(await notes(stub)).toEqual(
        runs.includes("toolu_mode_write") ? [{ key: "plan", text: "Ship on Friday" }] : [],
      );
      expect(fetchesOfPage()).toBe(runs.includes("toolu_mode_fetch") ? 1 : 0);
      await expectAlarmAt(stub, null);
      device.close();
    },
  );

  it("applies a mode changed over HTTP mid-turn to the next tool call", async () => {
    const ask = "toolu_ask_before_plan";
    const session = await createSession({
      script: [
        toolReply([{ name: "AskUserQuestion", id: ask, input: colourQuestion() }]),
        toolReply([writeCall("toolu_write_in_plan")]),
        textReply("I will describe the change instead."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Pick a colour, then save it" });
    const prompt = await device.waitForEvent("question_prompt");

    const patched = await api("PATCH", `/api/sessions/${session.sessionId}`, {
      token: session.token,
      body: { permissionMode: "plan" },
    });
    expect(patched.status).toBe(200);
    const status = await device.waitForEvent("session_status", (e) => e.data.mode === "plan");
    expect(status.data).toMatchObject({ status: "awaiting_input", mode: "plan" });
    // The question asked before the change is still open.
    await expectAlarmAt(stub, prompt.data.expiresAt);

    await device.request({ type: "submit_answers", toolCallId: ask, answers: { "0": "Blue" } });
    await device.waitForDone();
    expect(eventsOf(device, "approval_required")).toEqual([]);
    const requests = await modelRequests(stub);
    expect(toolResultsOf(lastMessage(requests[1]))).toEqual([
      { toolUseId: ask, content: answeredResult([[COLOUR_QUESTION, "Blue"]]), isError: false },
    ]);
    expect(toolResultsOf(lastMessage(requests[2]))).toEqual([
      { toolUseId: "toolu_write_in_plan", content: expect.stringContaining('"plan"'), isError: true },
    ]);
    expect(await notes(stub)).toEqual([]);
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("applies a mode changed over a socket mid-turn to the next tool call, leaving the open card open", async () => {
    const session = await createSession({
      script: [
        toolReply([writeCall("toolu_asked_write")]),
        toolReply([writeCall("toolu_bypassed_write", "Ship on Monday")]),
        textReply("Both saved."),
      ],
    });
    const stub = stubOf(session);
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });
    await phone.request({ type: "send_message", text: "Save the plan, then revise it" });
    const prompt = await phone.waitForEvent("approval_required");

    const ack = await laptop.request({ type: "set_permission_mode", mode: "bypassPermissions" });
    expect(ack).toMatchObject({ ok: true, result: { mode: "bypassPermissions" } });
    const status = await phone.waitForEvent("session_status", (e) => e.data.mode === "bypassPermissions");
    expect(status.data.status).toBe("awaiting_input");
    expect(phone.event("interaction_resolved")).toBeUndefined();
    await expectAlarmAt(stub, prompt.data.expiresAt);

    await phone.request({ type: "approve", toolCallId: "toolu_asked_write" });
    await phone.waitForDone();
    expect(eventsOf(phone, "approval_required").map((e) => e.data.toolCallId)).toEqual(["toolu_asked_write"]);
    expect(await notes(stub)).toEqual([{ key: "plan", text: "Ship on Monday" }]);
    const snapshot = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(await snapshot.json()).toMatchObject({ mode: "bypassPermissions", status: "idle", pending: [] });
    await expectAlarmAt(stub, null);
    phone.close();
    laptop.close();
  });
});

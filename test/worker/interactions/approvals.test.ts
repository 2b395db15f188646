// Approving and denying tool calls and "always allow": what runs, what asks, what the model is
// told, and where the alarm stands. The permission modes are in permission-modes.test.ts.
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import {
  eventsOf,
  expectAlarmAt,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  toolResultsOf,
} from "./interaction-fixtures";
import { fetchCall, notes, PAGE_TEXT, PAGE_URL, SLOW_URL, servePages, writeCall } from "./page-fetches";

const { fetchesOf, fetchesOfPage, releaseSlowPage } = servePages();

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
    await device.until(() => fetchesOf(SLOW_URL) > 0, "the slow fetch");
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

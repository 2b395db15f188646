// Deadline policies: what a card's deadline does (deny, cancel, keep waiting up to a maximum),
// chosen per kind and per tool for the session, and "Give me more time" up to the maximum — all
// through the one alarm and the object's own clock.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import { expectError, mintLink } from "../access/access-fixtures";
import {
  colourQuestion,
  dumpStorage,
  eventsOf,
  expectAlarmAt,
  lastMessage,
  modelRequests,
  stubOf,
  toolResultsOf,
} from "./interaction-fixtures";

const TIMEOUT_MS = 60_000;
const HOUR_MS = 3_600_000;

function writeCall(id: string) {
  return { name: "notes_write", id, input: { key: "plan", text: "Ship on Friday" } };
}

/** A session whose model asks to write a note (an approval card), then says `after`. */
async function approvalSession(deadlinePolicies: Record<string, unknown>, after = "Done.") {
  const session = await createSession({
    interactionTimeoutMs: TIMEOUT_MS,
    deadlinePolicies,
    script: [toolReply([writeCall("toolu_write")]), textReply(after)],
  });
  const device = await connect(session, { device: "laptop" });
  await device.request({ type: "send_message", text: "Save the plan" });
  const prompt = await device.waitForEvent("approval_required");
  return { session, device, prompt, stub: stubOf(session) };
}

async function extend(
  session: { sessionId: string; token: string },
  interactionId: string,
  token = session.token,
): Promise<Response> {
  return api("POST", `/api/sessions/${session.sessionId}/extend-deadline`, {
    token,
    body: { interactionId },
    headers: { "x-device-id": "phone" },
  });
}

describe("a deadline policy", () => {
  it("denies an approval at its deadline by default, and the card says so", async () => {
    const { device, prompt, stub } = await approvalSession({});
    expect(prompt.data.expiresAt).toBe(prompt.data.createdAt + TIMEOUT_MS);
    expect(prompt.data.deadlinePolicy).toEqual({
      onDeadline: "deny",
      maxExpiresAt: prompt.data.createdAt + 24 * HOUR_MS,
      extendByMs: 600_000,
    });
    await advanceClock(stub, { at: prompt.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({ outcome: "timed_out", resolvedBy: null });
    await device.waitForDone();
    device.close();
  });

  it("set to cancel for one tool, cancels its card and stops the turn as Stop would", async () => {
    const { device, prompt, stub } = await approvalSession(
      { tools: { notes_write: { onDeadline: "cancel" } } },
      "This reply must never be requested.",
    );
    expect(prompt.data.deadlinePolicy?.onDeadline).toBe("cancel");
    await advanceClock(stub, { at: prompt.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({
      toolCallId: "toolu_write",
      outcome: "cancelled",
      resolvedBy: null,
    });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("cancelled");
    // The model is not called again: the turn ended with the card.
    expect(await modelRequests(stub)).toHaveLength(1);
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("set to keep waiting for a kind, holds the card open past the timeout until its maximum, then times it out", async () => {
    const session = await createSession({
      interactionTimeoutMs: TIMEOUT_MS,
      deadlinePolicies: { kinds: { question: { onDeadline: "keep_waiting", maxWaitMs: 3 * HOUR_MS } } },
      script: [
        toolReply([{ name: "AskUserQuestion", id: "toolu_ask", input: colourQuestion() }]),
        textReply("No answer after three hours."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Pick a colour with me" });
    const prompt = await device.waitForEvent("question_prompt");
    // The card shows the real deadline: the maximum, not the timeout.
    expect(prompt.data.expiresAt).toBe(prompt.data.createdAt + 3 * HOUR_MS);
    await expectAlarmAt(stub, prompt.data.expiresAt);

    await advanceClock(stub, { at: prompt.data.createdAt + TIMEOUT_MS + 1 });
    await runDurableObjectAlarm(stub);
    const snapshot = (await (
      await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
    ).json()) as { pending: Array<{ interactionId: string; expiresAt: number }> };
    expect(snapshot.pending).toMatchObject([
      { interactionId: "toolu_ask", expiresAt: prompt.data.expiresAt },
    ]);
    expect(eventsOf(device, "interaction_resolved")).toEqual([]);

    await advanceClock(stub, { at: prompt.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await device.waitForEvent("interaction_resolved")).data.outcome).toBe("timed_out");
    await device.waitForDone();
    const [result] = toolResultsOf(lastMessage((await modelRequests(stub))[1]));
    expect(result).toMatchObject({ toolUseId: "toolu_ask", isError: true });
    expect(String(result?.content)).toContain("3 hours");
    device.close();
  });

  it("is refused at creation when it names a kind no kind has, or an action that does not exist", async () => {
    const unknownKind = await api("POST", "/api/sessions", {
      body: { deadlinePolicies: { kinds: { questoin: { onDeadline: "deny" } } } },
    });
    expect(unknownKind.status).toBe(400);
    expect(await unknownKind.text()).toContain("deadlinePolicies.kinds.questoin");
    const badAction = await api("POST", "/api/sessions", {
      body: { deadlinePolicies: { tools: { Bash: { onDeadline: "ignore" } } } },
    });
    expect(badAction.status).toBe(400);
    expect(await badAction.text()).toContain("deadlinePolicies.tools.Bash.onDeadline");
    const tooLong = await api("POST", "/api/sessions", {
      body: { deadlinePolicies: { default: { maxWaitMs: 8 * 24 * HOUR_MS } } },
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("deadlinePolicies.default.maxWaitMs");
  });
});

describe("the owner's own deadline policies", () => {
  it("apply to cards opened after they are set, and only the owner may set them", async () => {
    const session = await createSession({
      interactionTimeoutMs: TIMEOUT_MS,
      script: [
        toolReply([writeCall("toolu_first")]),
        toolReply([writeCall("toolu_second")]),
        textReply("Done."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save the plan" });
    const first = await device.waitForEvent("approval_required");
    expect(first.data.deadlinePolicy?.onDeadline).toBe("deny");

    const policies = { tools: { notes_write: { onDeadline: "cancel" } } };
    const answer = await mintLink(session, { role: "answer" });
    const refused = await api("POST", `/api/sessions/${session.sessionId}/deadline-policies`, {
      token: answer.token,
      body: { deadlinePolicies: policies },
    });
    await expectError(refused, 403, "forbidden");
    const unknownKind = await api("POST", `/api/sessions/${session.sessionId}/deadline-policies`, {
      token: session.token,
      body: { deadlinePolicies: { kinds: { plans: { onDeadline: "cancel" } } } },
    });
    await expectError(unknownKind, 400, "invalid_input");
    const set = await api("POST", `/api/sessions/${session.sessionId}/deadline-policies`, {
      token: session.token,
      body: { deadlinePolicies: policies },
    });
    expect(set.status).toBe(200);

    await device.request({ type: "approve", toolCallId: "toolu_first" });
    const second = await device.waitForEvent(
      "approval_required",
      (e) => e.data.toolCallId === "toolu_second",
    );
    expect(second.data.deadlinePolicy?.onDeadline).toBe("cancel");
    device.close();
  });
});

describe("giving a card more time", () => {
  it("moves its deadline by the step on every device and the alarm with it", async () => {
    const { session, device, prompt, stub } = await approvalSession({
      default: { extendByMs: 5 * 60_000, maxWaitMs: HOUR_MS },
    });
    const other = await connect(session, { device: "phone" });
    const response = await extend(session, "toolu_write");
    expect(response.status).toBe(200);
    const expiresAt = prompt.data.expiresAt + 5 * 60_000;
    expect(await response.json()).toMatchObject({
      ok: true,
      result: { interactionId: "toolu_write", expiresAt },
    });
    for (const d of [device, other]) {
      const extended = await d.waitForEvent("interaction_extended");
      expect(extended.data).toMatchObject({
        interactionId: "toolu_write",
        expiresAt,
        previousExpiresAt: prompt.data.expiresAt,
        extendedBy: "phone",
      });
    }
    await expectAlarmAt(stub, expiresAt);

    // The old deadline passes and nothing happens; the new one times the card out.
    await advanceClock(stub, { at: prompt.data.expiresAt + 1 });
    await runDurableObjectAlarm(stub);
    expect(eventsOf(device, "interaction_resolved")).toEqual([]);
    await advanceClock(stub, { at: expiresAt + 1 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await device.waitForEvent("interaction_resolved")).data.outcome).toBe("timed_out");
    device.close();
    other.close();
  });

  it("stops at the maximum: the last step is cut short, then 400 and nothing changes", async () => {
    const { session, device, prompt, stub } = await approvalSession({
      default: { extendByMs: 30_000, maxWaitMs: 100_000 },
    });
    const maxAt = prompt.data.createdAt + 100_000;
    expect(prompt.data.deadlinePolicy?.maxExpiresAt).toBe(maxAt);
    expect((await extend(session, "toolu_write")).status).toBe(200);
    const cut = await extend(session, "toolu_write");
    expect(await cut.json()).toMatchObject({ result: { expiresAt: maxAt } });
    const before = await dumpStorage(stub);
    const refused = await extend(session, "toolu_write");
    await expectError(refused, 400, "deadline_at_maximum");
    expect(await dumpStorage(stub)).toEqual(before);
    await expectAlarmAt(stub, maxAt);
    device.close();
  });

  it("is refused for an unknown card (404), and a card whose deadline passed loses to it (409)", async () => {
    const { session, device, prompt, stub } = await approvalSession({});
    await expectError(await extend(session, "toolu_nope"), 404, "unknown_interaction");
    await advanceClock(stub, { at: prompt.data.expiresAt + 1 });
    await expectError(await extend(session, "toolu_write"), 409, "already_resolved");
    expect((await device.waitForEvent("interaction_resolved")).data.outcome).toBe("timed_out");
    device.close();
  });

  it("may be asked by an answer link and over a socket, but not by a view link", async () => {
    const { session, device, prompt } = await approvalSession({});
    const answer = await mintLink(session, { role: "answer", label: "Phone" });
    expect((await extend(session, "toolu_write", answer.token)).status).toBe(200);
    const view = await mintLink(session, { role: "view" });
    await expectError(await extend(session, "toolu_write", view.token), 403, "forbidden");
    const viewer = await connect(session, { token: view.token });
    const refused = await viewer.request({ type: "extend_deadline", interactionId: "toolu_write" });
    expect(refused).toMatchObject({ ok: false, error: { code: "forbidden" } });
    const ack = await device.request({ type: "extend_deadline", interactionId: "toolu_write" });
    expect(ack).toMatchObject({ ok: true, result: { expiresAt: prompt.data.expiresAt + 2 * 600_000 } });
    const extensions = eventsOf(device, "interaction_extended");
    expect(extensions[0]?.data.answeredBy).toBe(`Phone (share link ${answer.linkId.slice(0, 8)})`);
    viewer.close();
    device.close();
  });
});

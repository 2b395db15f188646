import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { alarmOf, eventsOf, modelRequests, passRetryTime, stubOf } from "../../helpers/session-object-probe";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { expectValidTranscript } from "./agent-harness";

/** The announced wait, from the event's own time (stamped a moment after the failure). */
function expectWait(event: { at: number; data: { retryAt: number } }, ms: number): void {
  expect(event.data.retryAt - event.at).toBeLessThanOrEqual(ms);
  expect(event.data.retryAt - event.at).toBeGreaterThan(ms - 50);
}

const overloaded = (extra: Record<string, unknown> = {}) => ({
  content: [],
  error: { code: "overloaded", message: "Overloaded", ...extra },
});

describe("a model outage that outlasts the SDK's retries", () => {
  it("does not fail the turn: it waits with backoff, tells every device when, and the alarm re-issues the call", async () => {
    const session = await createSession({
      script: [
        overloaded(),
        { content: [], error: { code: "api_error", message: "Internal server error" } },
        textReply("Back again."),
      ],
    });
    const phone = await connect(session);
    const laptop = await connect(session);
    await phone.request({ type: "send_message", text: "hello" });
    const first = await phone.waitForEvent("model_retry");
    expect(first.data).toMatchObject({ attempt: 1, code: "overloaded", message: "Overloaded" });
    expectWait(first, 5_000);
    await laptop.waitForEvent("model_retry");
    expect(phone.event("done")).toBeUndefined();
    expect(await alarmOf(session)).toBe(first.data.retryAt);
    const snapshot = await (
      await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
    ).json();
    expect(snapshot).toMatchObject({
      status: "running",
      modelRetry: { attempt: 1, retryAt: first.data.retryAt },
    });

    // An early or duplicate alarm does not call the model before the retry time.
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => instance.alarm());
    expect(await modelRequests(session)).toHaveLength(1);

    await passRetryTime(session);
    await runDurableObjectAlarm(stubOf(session));
    const second = await phone.waitForEvent("model_retry", (e) => e.data.attempt === 2);
    expectWait(second, 10_000);
    await passRetryTime(session);
    await runDurableObjectAlarm(stubOf(session));
    const done = await phone.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    expect(phone.event("error")).toBeUndefined();
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(3);
    expect(requests[2]?.messages).toEqual(requests[0]?.messages);
    const after = await (
      await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
    ).json();
    expect(after).toMatchObject({ status: "idle", modelRetry: null });
    phone.close();
    laptop.close();
  });

  it("honours retry-after from a rate limit", async () => {
    const session = await createSession({
      script: [
        { content: [], error: { code: "rate_limited", message: "Slow down", retryAfterMs: 90_000 } },
        textReply("ok"),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello" });
    const retry = await device.waitForEvent("model_retry");
    expectWait(retry, 90_000);
    device.close();
  });

  it("retries at once when a person presses retry now, and refuses retry now when nothing waits", async () => {
    const session = await createSession({ script: [overloaded(), textReply("Right away.")] });
    const device = await connect(session);
    const before = await storageFingerprint(session.sessionId);
    expect(await device.request({ type: "retry_now" })).toMatchObject({
      ok: false,
      error: { code: "nothing_to_retry" },
    });
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    await device.request({ type: "send_message", text: "hello" });
    await device.waitForEvent("model_retry");
    expect(await device.request({ type: "retry_now" })).toMatchObject({ ok: true });
    expect((await device.waitForDone()).data.stopReason).toBe("end_turn");
    device.close();
  });

  it("drops the partial reply of a call that failed mid-stream before retrying", async () => {
    const session = await createSession({
      script: [
        {
          ...textReply("Half a thought that will be"),
          error: { code: "overloaded", message: "Overloaded", afterEvents: 4 },
        },
        textReply("A whole thought."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "think" });
    const retry = await device.waitForEvent("model_retry");
    const restarted = device.event("turn_restarted");
    expect(restarted?.seq).toBeLessThan(retry.seq);
    await passRetryTime(session);
    await runDurableObjectAlarm(stubOf(session));
    await device.waitForDone();
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(2);
    device.close();
  });

  it("gives up after the configured total time with a clear error and a valid transcript", async () => {
    const session = await createSession({
      script: [
        toolReply([{ name: "current_time", input: {} }]),
        overloaded(),
        overloaded(),
        textReply("later"),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "what time is it" });
    await device.waitForEvent("model_retry");
    // The outage began two hours ago (the default limit is one hour), and its retry is due now.
    await passRetryTime(session, 2 * 60 * 60 * 1000);
    // The device may hear of the retry before the run that scheduled it has returned; an alarm in
    // that moment leaves the turn to that run and re-arms, so the alarm runs until the error comes.
    await expect
      .poll(async () => {
        await runDurableObjectAlarm(stubOf(session));
        return device.event("error") !== undefined;
      })
      .toBe(true);
    const error = device.event("error");
    expect(error?.data).toMatchObject({ code: "model_unavailable" });
    expect(error?.data.message).toMatch(
      /stayed unavailable \(overloaded: Overloaded\) for 12\d minute\(s\) over 2 attempts; giving up/,
    );
    expect(eventsOf(device, "model_retry")).toHaveLength(1);
    await device.request({ type: "send_message", text: "try again" });
    await device.waitForDone(2);
    expectValidTranscript((await modelRequests(session)).at(-1)?.messages ?? []);
    device.close();
  });
});

describe("stop reasons", () => {
  it("continues a turn that stopped with pause_turn, sending the paused reply back as it was", async () => {
    const session = await createSession({
      script: [textReply("Searching the web…", { stopReason: "pause_turn" }), textReply("Found it.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "look it up" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "Searching the web…" }],
    });
    device.close();
  });

  it("drops a tool call cut off by max_tokens, tells the person, and keeps the transcript valid", async () => {
    const session = await createSession({
      script: [
        {
          ...toolReply(
            [{ name: "notes_write", input: { key: "plan", text: "a very long plan" } }],
            "Writing it down.",
          ),
          stopReason: "max_tokens",
        },
        textReply("Continuing."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "write the plan" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("max_tokens");
    const notice = await device.waitForEvent("turn_notice");
    expect(notice.data).toMatchObject({ code: "max_tokens" });
    expect(notice.data.message).toContain("notes_write");
    expect(device.event("approval_required")).toBeUndefined();
    expect(device.event("tool_result")).toBeUndefined();
    await device.request({ type: "send_message", text: "go on" });
    await device.waitForDone(2);
    const last = (await modelRequests(session)).at(-1);
    expectValidTranscript(last?.messages ?? []);
    expect(JSON.stringify(last?.messages)).not.toContain("tool_use");
    device.close();
  });

  it("ends a refused turn with a clear notice", async () => {
    const session = await createSession({
      script: [textReply("I can't help with that.", { stopReason: "refusal" })],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "something" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("refusal");
    expect((await device.waitForEvent("turn_notice")).data.code).toBe("refusal");
    device.close();
  });
});

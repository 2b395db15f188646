// The loop's failure boundaries: a stalled model stream is re-issued and, if it keeps stalling,
// fails the turn; an unexpected internal error fails the turn with a valid transcript instead of
// leaving it running for the watchdog to replay forever.
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SqlTranscriptStore } from "../../../src/session/stores/transcript-store";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { eventsOf, expectValidTranscript, modelRequests, sqlRows, stubOf } from "./agent-harness";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Makes the running turn's watchdog due, as if its stream had been silent for two minutes. */
async function watchdogDue(session: { sessionId: string }): Promise<void> {
  await sqlRows(
    session,
    `UPDATE meta SET value = ? WHERE key = 'watchdog_at'`,
    JSON.stringify(Date.now() - 1),
  );
}

const stalled = (text: string) => textReply(text, { stallAfterEvents: 3 });

describe("a model stream that goes silent", () => {
  it("is aborted by the watchdog and re-issued while its runner is still alive", async () => {
    const session = await createSession({ script: [stalled("Hmm, let me"), textReply("Here you go.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello?" });
    await device.waitForEvent("text_delta");

    await watchdogDue(session);
    expect(await runDurableObjectAlarm(stubOf(session))).toBe(true);
    const restarted = await device.waitForEvent("turn_restarted");
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    const after = eventsOf(device, "text_delta").filter((e) => e.seq > restarted.seq);
    expect(after.map((e) => e.data.text).join("")).toBe("Here you go.");
    expectValidTranscript((await modelRequests(session)).at(-1)?.messages ?? []);
  });

  it("fails the turn once the call was lost more times than the limit, and the next message works", async () => {
    const session = await createSession({
      script: [stalled("one"), stalled("two"), stalled("three"), stalled("four"), textReply("Back again.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "are you there?" });
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await device.until(() => eventsOf(device, "text_delta").length >= attempt, `stream attempt ${attempt}`);
      await watchdogDue(session);
      await runDurableObjectAlarm(stubOf(session));
    }
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("error");
    expect(eventsOf(device, "turn_restarted")).toHaveLength(3);
    expect(device.event("error")?.data.code).toBe("model_lost");
    await device.waitForEvent("session_status", (e) => e.data.status === "failed");

    await device.request({ type: "send_message", text: "try again" });
    await device.waitForDone(2);
    expectValidTranscript((await modelRequests(session)).at(-1)?.messages ?? []);
  });
});

describe("an unexpected internal error", () => {
  it("fails the turn with an error event and closed tool calls, and the alarm does not replay it", async () => {
    // The first write of the tool results fails, as a storage error would.
    const append = SqlTranscriptStore.prototype.append;
    let failed = false;
    vi.spyOn(SqlTranscriptStore.prototype, "append").mockImplementation(function (
      this: SqlTranscriptStore,
      role,
      content,
    ) {
      if (!failed && role === "user" && content.some((block) => block.type === "tool_result")) {
        failed = true;
        throw new Error("row too big");
      }
      return append.call(this, role, content);
    });
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [toolReply([{ name: "current_time", input: {} }]), textReply("It worked after all.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "what time is it?" });

    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("error");
    expect(device.event("error")?.data).toMatchObject({
      code: "internal",
      message: "Internal error: row too big",
    });
    await device.waitForEvent("session_status", (e) => e.data.status === "failed");
    const [status] = await sqlRows<{ value: string }>(session, `SELECT value FROM meta WHERE key = 'status'`);
    expect(JSON.parse(status?.value ?? "null")).toBe("failed");
    // Only the idle session's retention deadline is left; delivering it replays nothing.
    await runDurableObjectAlarm(stubOf(session));
    expect(device.event("turn_restarted")).toBeUndefined();

    vi.restoreAllMocks();
    await device.request({ type: "send_message", text: "again" });
    await device.waitForDone(2);
    expectValidTranscript((await modelRequests(session)).at(-1)?.messages ?? []);
  });
});

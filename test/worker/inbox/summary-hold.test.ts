// While a model call streams, the session's summary (status, title, last activity) waits for the
// call to end before it goes to the inbox, so no delivery and no acknowledgement write lands between
// live frames; a card that opened or was answered never waits.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DELIVERY_DELAY_MS, SUMMARY_HOLD_MS } from "../../../src/session/inbox-report/inbox-report";
import { textReply } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { ask, deliverOutbox, outboxSize, Person } from "./inbox-fixtures";

/** A reply whose stream sends its first text, then hangs until the call is aborted. */
function hangingReply(text: string) {
  return textReply(text, { stallAfterEvents: 3 });
}

/** Moves the session's clock by `ms` and runs its alarm, as the platform would once it is due. */
async function passTime(session: { sessionId: string }, ms: number): Promise<void> {
  await advanceClock(session, { by: ms });
  await runDurableObjectAlarm(stubOf(session));
}

describe("the inbox summary while a model streams", () => {
  it("waits for the call to end, then arrives; and never waits longer than the hold", async () => {
    const bob = new Person("bob.summary-hold@example.com");
    const session = await bob.createSession({
      script: [hangingReply("Thinking out loud"), hangingReply("More")],
    });
    await deliverOutbox(session);
    const device = await bob.connect(session);
    await device.request({ type: "send_message", text: "Plan the migration" });
    await device.waitForEvent("session_status", (e) => e.data.status === "running");

    // The stream flows: the alarm finds the summary not yet due, however often it runs.
    await passTime(session, DELIVERY_DELAY_MS);
    await passTime(session, DELIVERY_DELAY_MS);
    expect(await outboxSize(session)).toBeGreaterThan(0);
    expect((await bob.inbox()).sessions).toEqual([
      expect.objectContaining({ sessionId: session.sessionId, status: "idle", title: null }),
    ]);

    // The call ends (here: stopped), and what waited goes at once.
    await device.request({ type: "cancel" });
    const stopped = await device.waitForEvent("session_status", (e) => e.data.status === "idle");
    await deliverOutbox(session);
    expect((await bob.inbox()).sessions).toEqual([
      expect.objectContaining({ status: "idle", title: "Plan the migration" }),
    ]);

    // A call that streams past the hold: its summary goes then, mid-call.
    await device.request({ type: "send_message", text: "Again" });
    await device.waitForEvent("session_status", (e) => e.data.status === "running" && e.seq > stopped.seq);
    await passTime(session, DELIVERY_DELAY_MS);
    expect(await outboxSize(session)).toBeGreaterThan(0);
    await passTime(session, SUMMARY_HOLD_MS);
    expect(await outboxSize(session)).toBe(0);
    expect((await bob.inbox()).sessions).toEqual([expect.objectContaining({ status: "running" })]);
    await device.request({ type: "cancel" });
  });

  it("does not hold back an answered card while the resumed call streams", async () => {
    const carol = new Person("carol.summary-hold@example.com");
    const session = await carol.createSession({ script: [ask("toolu_hold"), hangingReply("Going on")] });
    const device = await carol.connect(session);
    await device.request({ type: "send_message", text: "Set it up" });
    await device.waitForEvent("question_prompt");
    await deliverOutbox(session);
    expect((await carol.inbox()).cards).toEqual([expect.objectContaining({ interactionId: "toolu_hold" })]);

    await device.request({
      type: "submit_answers",
      toolCallId: "toolu_hold",
      answers: { "Which database should the service use?": "Postgres" },
    });
    await device.waitForEvent("session_status", (e) => e.data.status === "running");
    await passTime(session, DELIVERY_DELAY_MS);
    expect(await outboxSize(session)).toBe(0);
    expect((await carol.inbox()).cards).toEqual([]);
    await device.request({ type: "cancel" });
  });
});

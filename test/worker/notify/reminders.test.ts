// Reminders before a card's deadline (its policy's `remindBeforeMs`): a webhook and a push through
// the notifier, sent by the one alarm at the offset, and again before a deadline that was extended.
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { CardNotice } from "../../../src/protocol";
import { NOTIFY_BINDINGS } from "../../helpers/notify-bindings";
import {
  api,
  connect,
  createSession,
  type Device,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliver, type SentRequest, sentTo } from "./notify-fixtures";

const HOST = new URL(NOTIFY_BINDINGS.NOTIFY_WEBHOOK_URL).host;
const TIMEOUT_MS = 60_000;

let devices: Device[] = [];
afterEach(() => {
  for (const device of devices) device.close();
  devices = [];
});

async function hooksFor(sessionId: string): Promise<Array<SentRequest & { notice: CardNotice }>> {
  return (await sentTo(HOST))
    .map((request) => ({
      ...request,
      notice: JSON.parse(new TextDecoder().decode(request.body)) as CardNotice,
    }))
    .filter((request) => request.notice.sessionId === sessionId);
}

async function reminders(sessionId: string) {
  return (await hooksFor(sessionId)).filter((hook) => hook.headers["x-parley-event"] === "card.reminder");
}

describe("a reminder before a card's deadline", () => {
  it("goes out by webhook at the configured offset, not before, and again before an extended deadline", async () => {
    const session = await createSession({
      interactionTimeoutMs: TIMEOUT_MS,
      deadlinePolicies: { default: { remindBeforeMs: [20_000], extendByMs: 120_000 } },
      script: [
        toolReply([{ id: "toolu_remind", name: "notes_write", input: { key: "plan", text: "ship it" } }]),
        textReply("Saved."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "laptop" });
    devices.push(device);
    await device.request({ type: "send_message", text: "note the plan" });
    const prompt = await device.waitForEvent("approval_required");
    await deliver(session, async () => (await hooksFor(session.sessionId)).length >= 1, "the opened webhook");

    // A second before the reminder is due, the alarm sends none.
    await advanceClock(stub, { at: prompt.data.expiresAt - 21_000 });
    await runDurableObjectAlarm(stub);
    expect(await reminders(session.sessionId)).toEqual([]);

    await advanceClock(stub, { at: prompt.data.expiresAt - 20_000 });
    const [first] = await deliver(
      session,
      async () => (await reminders(session.sessionId)).length >= 1 && reminders(session.sessionId),
      "the reminder webhook",
    );
    expect(first?.notice).toMatchObject({
      change: "reminder",
      deadline: prompt.data.expiresAt,
      card: { interactionId: "toolu_remind", outcome: null },
    });
    expect(first?.notice.title).toMatch(/^Still waiting: /);
    expect(first?.notice.body).toContain("20 seconds left to answer");
    // The card is still open, and repeated alarms remind no more.
    await runDurableObjectAlarm(stub);
    expect(await reminders(session.sessionId)).toHaveLength(1);

    const extended = await api("POST", `/api/sessions/${session.sessionId}/extend-deadline`, {
      token: session.token,
      body: { interactionId: "toolu_remind" },
    });
    expect(extended.status).toBe(200);
    const expiresAt = prompt.data.expiresAt + 120_000;
    await advanceClock(stub, { at: expiresAt - 20_000 });
    const second = await deliver(
      session,
      async () => (await reminders(session.sessionId)).length >= 2 && reminders(session.sessionId),
      "the reminder before the extended deadline",
    );
    expect(second[1]?.notice.deadline).toBe(expiresAt);
  });
});

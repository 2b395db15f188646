// Due rows are sent at once: once the step that stored a card's webhook row is done, the row is
// attempted without waiting for the alarm, which stays for the retries. The session's clock runs
// an hour ahead of the platform's, so its alarm (set by the platform's time) cannot be what sends.
import { describe, expect, it } from "vitest";
import type { CardNotice } from "../../../src/protocol";
import { NOTIFY_BINDINGS } from "../../helpers/notify-bindings";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import { deliveryLog, scriptAnswers, sentTo } from "./notify-fixtures";

const HOST = new URL(NOTIFY_BINDINGS.NOTIFY_WEBHOOK_URL).host;
const HOUR = 3_600_000;

async function hooksFor(sessionId: string): Promise<CardNotice[]> {
  return (await sentTo(HOST))
    .map((request) => JSON.parse(new TextDecoder().decode(request.body)) as CardNotice)
    .filter((notice) => notice.sessionId === sessionId);
}

async function openedAhead(id: string) {
  const session = await createSession({
    script: [
      toolReply([{ id, name: "notes_write", input: { key: "plan", text: "ship it" } }]),
      textReply("Saved."),
    ],
  });
  const now = await advanceClock(session, { by: HOUR });
  const device = await connect(session, { device: "laptop" });
  await device.request({ type: "send_message", text: "note the plan" });
  await device.waitForEvent("approval_required");
  return { session, device, now };
}

describe("a delivery row's first attempt", () => {
  it("sends a card's webhook as soon as the step that stored it is done, not on the alarm", async () => {
    const { session, device, now } = await openedAhead("toolu_at_once");
    await expect
      .poll(async () => (await hooksFor(session.sessionId)).map((n) => n.change))
      .toEqual(["opened"]);
    expect(await deliveryLog(session)).toMatchObject([
      { channel: "webhook", status: "delivered", attempts: 1 },
    ]);
    // The row was due at the session's time, an hour past the platform's: its alarm could not have fired.
    expect((await deliveryLog(session))[0]?.createdAt).toBeGreaterThanOrEqual(now);
    device.close();
  });

  it("leaves a failed attempt to the alarm, at the schedule's first retry", async () => {
    await scriptAnswers(HOST, [503], "toolu_at_once_retry");
    const { session, device, now } = await openedAhead("toolu_at_once_retry");
    await expect
      .poll(async () => (await deliveryLog(session))[0])
      .toMatchObject({ status: "pending", attempts: 1, lastStatus: 503 });
    const [row] = await deliveryLog(session);
    expect(row?.nextAt).toBeGreaterThanOrEqual(now + 5_000);
    expect(row?.nextAt).toBeLessThan(now + 30_000);
    device.close();
  });
});

// The inbox's one alarm runs on the same deadline-source loop as a session's: it is set to the
// earliest of its sources (link expiry, pushes, chat deliveries), and moves as they change.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../helpers/run-in-object";
import { ORIGIN, textReply } from "../../helpers/session-harness";
import { ask, deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

const HOUR_MS = 60 * 60 * 1000;

function alarmOf(email: string): Promise<number | null> {
  return runInDurableObject(inboxObject(email), (_, state) => state.storage.getAlarm());
}

describe("the inbox's alarm", () => {
  it("is the earliest of its sources: a chat delivery due now comes before a link that expires in an hour", async () => {
    const alice = new Person("alice.alarm@example.com");
    const inbox = env.INBOXES.get(env.INBOXES.idFromName(alice.email));
    const expiresAt = Date.now() + HOUR_MS;
    await inbox.addLink({ linkId: "a".repeat(32), role: "view", label: "Tablet", expiresAt });
    expect(await alarmOf(alice.email)).toBe(expiresAt);

    await inbox.addChatLink({
      linkId: "chat_alarm",
      platform: "telegram",
      accountId: "42",
      name: "Alice",
      threadId: "telegram:42",
      origin: ORIGIN,
    });
    const session = await alice.createSession({ script: [ask("toolu_alarm"), textReply("Noted.")] });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "Set it up" });
    await laptop.waitForEvent("question_prompt");
    await deliverOutbox(session);

    const alarm = await alarmOf(alice.email);
    expect(alarm).not.toBeNull();
    expect(alarm).toBeLessThan(expiresAt);
    expect(alarm).toBeLessThanOrEqual(Date.now());
  });

  it("is deleted when no source waits for anything", async () => {
    const bob = new Person("bob.alarm@example.com");
    const inbox = env.INBOXES.get(env.INBOXES.idFromName(bob.email));
    await inbox.addLink({ linkId: "b".repeat(32), role: "view", label: null, expiresAt: null });
    expect(await alarmOf(bob.email)).toBeNull();
  });
});

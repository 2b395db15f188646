// "More time" on a card reaches the person's inbox too: the inbox's copy of the card takes the new
// deadline through the session's outbox.
import { describe, expect, it } from "vitest";
import { textReply } from "../../helpers/session-harness";
import { ask, deliverOutbox, Person } from "./inbox-fixtures";

describe("a card given more time", () => {
  it("shows its new deadline in the inbox", async () => {
    const alice = new Person("alice.more-time@example.com");
    const session = await alice.createSession({ script: [ask("toolu_more_time"), textReply("Noted.")] });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "Set it up" });
    const prompt = await laptop.waitForEvent("question_prompt");
    await deliverOutbox(session);
    expect((await alice.inbox()).cards[0]?.expiresAt).toBe(prompt.data.expiresAt);

    const extended = await alice.api("POST", `/api/sessions/${session.sessionId}/extend-deadline`, {
      token: session.token,
      body: { interactionId: "toolu_more_time" },
    });
    expect(extended.status).toBe(200);
    const body = (await extended.json()) as { result: { expiresAt: number } };
    const { expiresAt } = body.result;
    expect(expiresAt).toBeGreaterThan(prompt.data.expiresAt);
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toMatchObject([{ interactionId: "toolu_more_time", expiresAt }]);
    laptop.close();
  });
});

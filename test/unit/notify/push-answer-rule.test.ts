// The one rule both a session's pushes and the inbox's follow: a card's push is marked answerable
// (its body led by the whole call) only where the notification may answer it, and a device gets an
// answer token only for such a push, subscribed in person, with the actions on and a known person.
import { describe, expect, it } from "vitest";
import { withNotificationAnswer } from "../../../src/notify/push-actions";
import type { CardNotice } from "../../../src/protocol/reach/notify";
import { checkPushAnswerToken, pushAnswerTokenFor } from "../../../src/tokens/push-answer-token";

const SECRET = "a-secret-of-this-test-only-0123456789";
const DEADLINE = Date.UTC(2030, 0, 1);

const approval = (level: string, command = "ls -la") => ({
  kind: "approval",
  request: {
    toolName: "Bash",
    input: { command },
    assessment: { level, summary: "Lists files", effects: [] },
  },
});

function notice(change: CardNotice["change"] = "opened"): CardNotice {
  return {
    change,
    sessionId: "0123456789abcdef0123456789abcdef",
    seq: 3,
    card: {
      interactionId: "toolu_push_rule",
      toolCallId: "toolu_push_rule",
      kind: "approval",
      toolName: "Bash",
      request: approval("low").request,
      outcome: null,
      resolvedBy: null,
    },
    deadline: DEADLINE,
    title: "Approve Bash?",
    body: "Lists files — 10 minutes left to answer",
    url: "https://parley.test/#/s/0123456789abcdef0123456789abcdef?card=toolu_push_rule",
  };
}

const inPerson = { linkId: null, actions: true, person: "ana@example.com" };

describe("a card's push and its answer token", () => {
  it("is marked answerable with the whole call leading its body for a low approval one answer decides", () => {
    const pushed = withNotificationAnswer(notice(), approval("low"));
    expect(pushed.answerable).toBe(true);
    expect(pushed.body).toBe("$ ls -la\nLists files — 10 minutes left to answer");
  });

  it("is left as it was for a high call, a card that needs a second person and a resolved card", () => {
    const plain = notice();
    expect(withNotificationAnswer(plain, approval("high"))).toBe(plain);
    const twoPeople = { ...approval("low"), approvals: { needed: 2, given: 0, by: [] } };
    expect(withNotificationAnswer(plain, twoPeople)).toBe(plain);
    const resolved = notice("resolved");
    expect(withNotificationAnswer(resolved, approval("low"))).toBe(resolved);
  });

  it("carries a token for the card and its deadline, answering as the device's person", async () => {
    const token = await pushAnswerTokenFor(
      SECRET,
      withNotificationAnswer(notice(), approval("low")),
      inPerson,
    );
    const checked = await checkPushAnswerToken(SECRET, token ?? "", DEADLINE - 1);
    expect(checked).toMatchObject({
      ok: true,
      claims: {
        sessionId: "0123456789abcdef0123456789abcdef",
        interactionId: "toolu_push_rule",
        person: "ana@example.com",
        decisions: ["approve", "deny"],
        expiresAt: DEADLINE,
      },
    });
  });

  it("carries none for a push not marked answerable, a device through a link, actions off or no person", async () => {
    const answerable = withNotificationAnswer(notice(), approval("low"));
    expect(await pushAnswerTokenFor(SECRET, notice(), inPerson)).toBeNull();
    expect(await pushAnswerTokenFor(SECRET, { ...answerable, change: "resolved" }, inPerson)).toBeNull();
    expect(await pushAnswerTokenFor(SECRET, answerable, { ...inPerson, linkId: "link-1" })).toBeNull();
    expect(await pushAnswerTokenFor(SECRET, answerable, { ...inPerson, actions: false })).toBeNull();
    expect(await pushAnswerTokenFor(SECRET, answerable, { ...inPerson, person: null })).toBeNull();
  });
});

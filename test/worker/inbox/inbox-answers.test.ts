// Answering from the inbox: the answer goes to the card's own session, first answer wins there
// (409 with the winner), the person is recorded as who answered, and another person gets 403.
import { describe, expect, it } from "vitest";
import { textReply } from "../../helpers/session-harness";
import { ask, deliverOutbox, Person } from "./inbox-fixtures";

const QUESTION = "Which database should the service use?";

async function sessionWithCard(person: Person, id: string) {
  const session = await person.createSession({ script: [ask(id), textReply("Noted.")] });
  const laptop = await person.connect(session);
  await laptop.request({ type: "send_message", text: "Set it up" });
  await laptop.waitForEvent("question_prompt");
  await deliverOutbox(session);
  return { session, laptop };
}

function answerPath(sessionId: string, interactionId: string): string {
  return `/api/inbox/cards/${sessionId}/${interactionId}/respond`;
}

describe("answering from the inbox", () => {
  it("resolves the card in its session, on every device, naming the person who answered", async () => {
    const alice = new Person("alice.answers@example.com");
    const { session, laptop } = await sessionWithCard(alice, "toolu_inbox_answer");
    const card = (await alice.inbox()).cards[0];
    expect(card).toMatchObject({ sessionId: session.sessionId, interactionId: "toolu_inbox_answer" });

    const answered = await alice.api("POST", answerPath(session.sessionId, "toolu_inbox_answer"), {
      body: { response: { answers: { [QUESTION]: "SQLite" } } },
    });
    expect(answered.status).toBe(200);
    const resolved = await laptop.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({
      outcome: "answered",
      resolvedBy: "inbox",
      answeredBy: alice.email,
    });
    await laptop.waitForDone();

    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toEqual([]);
    laptop.close();
  });

  it("loses a race with the session's own device: 409 with the device's answer", async () => {
    const alice = new Person("alice.race@example.com");
    const { session, laptop } = await sessionWithCard(alice, "toolu_race");
    const first = await laptop.request({
      type: "submit_answers",
      toolCallId: "toolu_race",
      answers: { [QUESTION]: "Postgres" },
    });
    expect(first).toMatchObject({ ok: true });

    const late = await alice.api("POST", answerPath(session.sessionId, "toolu_race"), {
      body: { response: { answers: { [QUESTION]: "SQLite" } } },
    });
    expect(late.status).toBe(409);
    const body = (await late.json()) as { error: { code: string; resolution: { resolvedBy: string } } };
    expect(body.error.code).toBe("already_resolved");
    expect(body.error.resolution.resolvedBy).toBe(laptop.hello?.deviceId);
    expect(laptop.events.filter((e) => e.type === "interaction_resolved")).toHaveLength(1);
    laptop.close();
  });

  it("refuses another person: 403 for the card, and for the session even with its owner token", async () => {
    const alice = new Person("alice.mine@example.com");
    const bob = new Person("bob.theirs@example.com");
    const { session, laptop } = await sessionWithCard(alice, "toolu_not_bobs");

    const answer = await bob.api("POST", answerPath(session.sessionId, "toolu_not_bobs"), {
      body: { response: { answers: { [QUESTION]: "SQLite" } } },
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ error: { code: "forbidden" } });
    const snapshot = await bob.api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(snapshot.status).toBe(403);
    expect((await bob.inbox()).cards).toEqual([]);

    // Nothing changed: the card still waits for Alice.
    const own = await alice.api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(await own.json()).toMatchObject({
      status: "awaiting_input",
      pending: [{ interactionId: "toolu_not_bobs" }],
    });
    laptop.close();
  });

  it("refuses an answer of the wrong shape with the kind's own message, changing nothing", async () => {
    const alice = new Person("alice.shape@example.com");
    const { session, laptop } = await sessionWithCard(alice, "toolu_shape");
    const bad = await alice.api("POST", answerPath(session.sessionId, "toolu_shape"), {
      body: { response: { answers: { [QUESTION]: 42 } } },
    });
    expect(bad.status).toBe(400);
    expect((await alice.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_shape"]);
    laptop.close();
  });
});

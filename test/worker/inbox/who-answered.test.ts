// Who answered: every resolution records who gave it as the server knows them — the session's
// creator for its owner token, a share link's label and id — beside the device id the client chose.
import { describe, expect, it } from "vitest";
import type { MintedLink } from "../../../src/protocol";
import { textReply } from "../../helpers/session-harness";
import { ask, Person } from "./inbox-fixtures";

const QUESTION = "Which database should the service use?";

describe("who answered", () => {
  it("is the creator for the owner's devices, in the event, the 409 winner and the export", async () => {
    const alice = new Person("alice.who@example.com");
    const session = await alice.createSession({ script: [ask("toolu_who"), textReply("Thanks.")] });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "Ask me" });
    await laptop.waitForEvent("question_prompt");
    await laptop.request({
      type: "submit_answers",
      toolCallId: "toolu_who",
      answers: { [QUESTION]: "Postgres" },
    });
    const resolved = await laptop.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({ resolvedBy: laptop.hello?.deviceId, answeredBy: alice.email });

    const late = await alice.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: { interactionId: "toolu_who", response: { answers: { [QUESTION]: "SQLite" } } },
    });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { resolution: { answeredBy: alice.email } } });

    await laptop.waitForDone();
    const exported = (await (
      await alice.api("GET", `/api/sessions/${session.sessionId}/export`, { token: session.token })
    ).json()) as { events: Array<{ type: string; data: { answeredBy?: string } }> };
    expect(exported.events.find((e) => e.type === "interaction_resolved")?.data.answeredBy).toBe(alice.email);
    laptop.close();
  });

  it("is a share link's label and id for an answer given through it", async () => {
    const alice = new Person("alice.share@example.com");
    const session = await alice.createSession({ script: [ask("toolu_shared"), textReply("Thanks.")] });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "Ask someone" });
    await laptop.waitForEvent("question_prompt");
    const minted = await alice.api("POST", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
      body: { role: "answer", label: "Bob's phone" },
    });
    const link = (await minted.json()) as MintedLink;

    // Bob signs in as himself and answers with the link Alice gave him.
    const bob = new Person("bob.share@example.com");
    const answered = await bob.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: link.token,
      body: { interactionId: "toolu_shared", response: { answers: { [QUESTION]: "SQLite" } } },
    });
    expect(answered.status).toBe(200);
    const resolved = await laptop.waitForEvent("interaction_resolved");
    expect(resolved.data.answeredBy).toBe(`Bob's phone (share link ${link.linkId.slice(0, 8)})`);
    laptop.close();
  });
});

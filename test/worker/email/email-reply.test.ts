// A reply to a card's email answers it: "approve" or "deny" as its first line, from the address the
// email went to, at the card's own reply address, once, while the card is open. Every other message
// is refused by the Worker's Email Routing handler with the reason, and the card does not change.
import { describe, expect, it } from "vitest";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import { deliverOutbox, Person } from "../inbox/inbox-fixtures";
import {
  cardState,
  deliverEmail,
  emailedCard,
  escalatedCard,
  replyMime,
  verifiedAddress,
} from "./card-email-fixtures";

/**
 * A card of a new person, emailed to their verified address (one of its own): its person, card,
 * the address, the email as sent and a reply to it.
 */
async function emailedOwner(name: string) {
  const person = new Person(`${name}@example.com`);
  const address = `${name}@mail.example`;
  await verifiedAddress(person, address);
  const { session, interactionId } = await escalatedCard(person, "me", "make deploy");
  const card = await emailedCard(address);
  const reply = (text: string, from = address, headerFrom = from) =>
    deliverEmail(from, card.replyTo, replyMime({ from, to: card.replyTo, text, headerFrom }));
  return { person, session, interactionId, address, card, reply };
}

describe("a reply to a card's email", () => {
  it("approves the card once, as its person, when the address it went to replies approve", async () => {
    const { person, session, interactionId, reply } = await emailedOwner("ana.reply.once");
    expect(await reply("Approve")).toBeNull();
    expect(await cardState(person, session, interactionId)).toMatchObject({
      status: "resolved",
      resolution: { outcome: "approved" },
    });

    // The token is spent: a second reply, even the other word, is refused and changes nothing.
    expect(await reply("deny")).toBe("This email's answer was already used");
    expect((await cardState(person, session, interactionId)).resolution?.outcome).toBe("approved");

    await deliverOutbox(session);
    const page = (await (
      await person.api("GET", `/api/decisions?session=${session.sessionId}`)
    ).json()) as DecisionPage;
    expect(page.decisions[0]?.decidedBy).toMatchObject({ personId: person.email });
  });

  it("refuses a reply from any other sender, or whose From is not its sender, and the card stays open", async () => {
    const { person, session, interactionId, address, reply } = await emailedOwner("ana.reply.sender");
    const wrongSender = "Only the address this email went to, while it is verified, answers it";
    expect(await reply("approve", "mallory@mail.example")).toBe(wrongSender);
    // A From header naming the address is not the sender.
    expect(await reply("approve", "mallory@mail.example", address)).toMatch(
      /^The message's From is not its sender/,
    );
    expect(await reply("approve", address, "mallory@mail.example")).toMatch(
      /^The message's From is not its sender/,
    );
    expect((await cardState(person, session, interactionId)).status).toBe("pending");
    // Nothing was spent: the address it went to still answers.
    expect(await reply("deny")).toBeNull();
    expect((await cardState(person, session, interactionId)).resolution?.outcome).toBe("denied");
  });

  it("refuses a reply without the card's token, with an unknown one or a forged one", async () => {
    const { person, session, interactionId, address, card } = await emailedOwner("ana.reply.token");
    const token = card.replyToken;
    expect(token).toMatch(/^[a-z2-7]{42}$/);
    expect(card.replyTo).toBe(`parley+${token}@parley.test`);
    const send = (to: string) => deliverEmail(address, to, replyMime({ from: address, to, text: "approve" }));
    expect(await send("parley@parley.test")).toMatch(/^This address takes only replies to a card's email/);
    expect(await send("parley+approve@parley.test")).toMatch(/^This address takes only replies/);
    // The card's session, with another 80 random bits.
    const unknown = `${token.slice(0, 26)}${"a".repeat(16)}`;
    expect(await send(`parley+${unknown}@parley.test`)).toBe(
      "Unknown email answer: reply to the card's own email",
    );
    // One character changed in the session's part: no session, or one that keeps no such token.
    const forged = `${token[0] === "b" ? "c" : "b"}${token.slice(1)}`;
    expect(await send(`parley+${forged}@parley.test`)).toBe(
      "Unknown email answer: reply to the card's own email",
    );
    expect((await cardState(person, session, interactionId)).status).toBe("pending");
  });

  it("refuses a reply for a card that was already answered, and its answer stands", async () => {
    const { person, session, interactionId, reply } = await emailedOwner("ana.reply.resolved");
    const answered = await person.api(
      "POST",
      `/api/inbox/cards/${session.sessionId}/${interactionId}/respond`,
      {
        body: { response: { decision: "approve" } },
      },
    );
    expect(answered.status, await answered.clone().text()).toBe(200);
    // Refused by the inbox's copy, or by the session if that copy has not heard yet.
    expect(await reply("deny")).toMatch(/was already (resolved|approved)$/);
    expect((await cardState(person, session, interactionId)).resolution?.outcome).toBe("approved");
  });

  it("refuses a reply whose first line is not exactly approve or deny, spending nothing", async () => {
    const { person, session, interactionId, reply } = await emailedOwner("ana.reply.words");
    const refusal = 'The reply\'s first line must be "approve" or "deny" and nothing else';
    for (const text of ["yes", "approve it", "Deny please", "okay\napprove", "> approve", ""]) {
      expect(await reply(text), text).toBe(refusal);
    }
    expect((await cardState(person, session, interactionId)).status).toBe("pending");
    expect(await reply("\n  DENY  \n\nsent from my phone")).toBeNull();
    expect((await cardState(person, session, interactionId)).resolution?.outcome).toBe("denied");
  });

  it("refuses a reply from an address its person removed after the email went out", async () => {
    const { person, session, interactionId, address, reply } = await emailedOwner("ana.reply.removed");
    const removed = await person.api("DELETE", "/api/people/me/emails", { body: { address } });
    expect(removed.status).toBe(200);
    expect(await reply("approve")).toBe(
      "Only the address this email went to, while it is verified, answers it",
    );
    expect((await cardState(person, session, interactionId)).status).toBe("pending");
  });
});

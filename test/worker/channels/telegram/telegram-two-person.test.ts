// A call that needs two people (APPROVAL_POLICIES: `Bash(git push:*)` needs 2) in a chat: the
// message says how many approvals it has so far, a press from the linked account counts once and
// says so, the message is redrawn with "1 of 2 approvals" by name, the same person through a link or
// two See all pages gives no second approval, and a second person's approval elsewhere runs the
// call and edits the message to its receipt.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedLink } from "../../../../src/protocol/access/access";
import type { CreatedSession } from "../../../helpers/session-harness";
import { deliverOutbox, Person } from "../../inbox/inbox-fixtures";
import { buttonsOf, callsTo, link, pressFrom, sendUpdate, sentTo } from "./telegram-fixtures";

type External = CreatedSession & { agentToken: string };

async function pushCard(
  person: Person,
  command = "git push origin main",
): Promise<{ session: External; interactionId: string }> {
  const created = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  const session = (await created.json()) as External;
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command } } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  await deliverOutbox(session);
  return { session, interactionId };
}

describe("a two-person approval in Telegram", { timeout: 60_000 }, () => {
  it("counts the account's press once, redraws the message with the count, and takes the receipt after the second person", async () => {
    const ana = new Person("ana.two.telegram@example.com");
    const user = { id: 5901, first_name: "Ana" };
    await link(ana, user);
    const { session, interactionId } = await pushCard(ana);
    await sentTo(ana, user.id, "sendMessage", 2);
    const card = (await callsTo(user.id, "sendMessage")).find((call) => call.body.reply_markup);
    expect(card?.body.text).toContain("0 of 2 approvals");

    // The account's approval counts, and it is told another person must approve too.
    const approve = buttonsOf(card!).Approve!;
    expect((await sendUpdate(pressFrom(user, 1, approve))).status).toBe(200);
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain(
      "Your approval counts: 1 of 2 approvals",
    );
    await deliverOutbox(session);
    const [redraw] = await sentTo(ana, user.id, "editMessageText", 1);
    expect(redraw?.body.text).toContain("1 of 2 approvals · Ana · Telegram");
    // Still a card to answer: the buttons stay.
    expect(Object.keys(buttonsOf(redraw!))).toEqual(expect.arrayContaining(["Approve", "Deny"]));

    // The same account again is still one approver: nothing is counted twice.
    await sendUpdate(pressFrom(user, 1, approve));
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain("1 of 2");

    // A link the account's person minted is still that person: it gives no second approval.
    const minted = await ana.api("POST", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
      body: { role: "answer", label: "Bo" },
    });
    const shared = (await minted.json()) as MintedLink;
    const approveThrough = (person: Person) =>
      person.api("POST", `/api/sessions/${session.sessionId}/respond`, {
        token: shared.token,
        body: { interactionId, response: { decision: "approve" } },
      });
    const own = await approveThrough(ana);
    expect(own.status).toBe(409);
    expect(await own.text()).toContain("You already approved this call");

    // A second person (another Access identity, through that link) approves: the call runs, the
    // message takes its receipt and loses its buttons.
    const second = await approveThrough(new Person("bo.two.telegram@example.com"));
    expect(second.status, await second.clone().text()).toBe(200);
    await deliverOutbox(session);
    const edits = await sentTo(ana, user.id, "editMessageText", 2);
    expect(edits.at(-1)?.body.text).toMatch(/^Approved by /);
    expect(edits.at(-1)?.body.reply_markup).toEqual({ inline_keyboard: [] });
  });

  it("counts two See all pages of the same account as its person, who already approved", async () => {
    const ana = new Person("ana.two.seeall@example.com");
    const user = { id: 5903, first_name: "Ana" };
    await link(ana, user);
    // A command too long for a message: the chat offers only See all.
    const { session, interactionId } = await pushCard(
      ana,
      `git push origin main ${"-o ci.skip ".repeat(160)}`,
    );
    await sentTo(ana, user.id, "sendMessage", 2);
    const seeAll = buttonsOf((await callsTo(user.id, "sendMessage")).find((call) => call.body.reply_markup)!)[
      "See all"
    ];
    expect(seeAll).toBeDefined();
    const pages: string[] = [];
    for (const press of [1, 2]) {
      await sendUpdate(pressFrom(user, press, seeAll!));
      const sent = (await callsTo(user.id, "sendMessage")).at(-1);
      const markup = sent?.body.reply_markup as { inline_keyboard: { text: string; url?: string }[][] };
      const url = markup.inline_keyboard.flat().find((button) => button.text === "See all in Parley")?.url;
      const opened = await exports.default.fetch(url as string, { redirect: "manual" });
      expect(opened.status).toBe(303);
      const location = (opened.headers.get("location") ?? "").replace("#/", "");
      pages.push(new URL(location).searchParams.get("token") as string);
    }
    const approveOn = (token: string) =>
      ana.api("POST", `/api/sessions/${session.sessionId}/respond`, {
        token,
        body: { interactionId, response: { decision: "approve" } },
      });
    expect((await approveOn(pages[0]!)).status).toBe(200);
    const again = await approveOn(pages[1]!);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You already approved this call");
    const card = await ana.api("GET", `/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
      token: session.agentToken,
    });
    expect(await card.json()).toMatchObject({ status: "pending" });
  });
});

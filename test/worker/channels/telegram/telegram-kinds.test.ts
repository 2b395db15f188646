// Every kind in Telegram: text asked for with a forced reply (Deny with reason, Other, plan
// feedback) and answered by replying, a multi-select's toggles and Done, several questions in
// turn, and Allow… making the chat account's grant.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { textReply, toolReply } from "../../../helpers/session-harness";
import { deliverOutbox, Person } from "../../inbox/inbox-fixtures";
import { lastMessage, modelRequests, stubOf, toolResultsOf } from "../../interactions/interaction-fixtures";
import { channelObject } from "../chat-fixtures";
import {
  buttonsOf,
  callsTo,
  lastCard,
  link,
  pressFrom,
  replyFrom,
  sendUpdate,
  sentTo,
  type TelegramUser,
  textFrom,
} from "./telegram-fixtures";

/** The forced reply Parley last sent `chatId`: its text and message id. */
async function forcedReply(chatId: number) {
  const asked = (await callsTo(chatId, "sendMessage")).filter(
    (call) => (call.body.reply_markup as { force_reply?: boolean } | undefined)?.force_reply,
  );
  const last = asked.at(-1);
  if (!last) throw new Error(`no forced reply was sent to ${chatId}`);
  return {
    text: String(last.body.text),
    messageId: String((last.result as { message_id: number }).message_id),
  };
}

/** A session of `person` whose model makes `call` and then says "Done."; its card delivered to `user`. */
async function cardFor(
  person: Person,
  user: TelegramUser,
  call: { id: string; name: string; input: Record<string, unknown> },
  permissionMode?: "plan",
) {
  await link(person, user);
  const session = await person.createSession({
    script: [toolReply([call]), textReply("Done.")],
    ...(permissionMode ? { permissionMode } : {}),
  });
  const device = await person.connect(session);
  await device.request({ type: "send_message", text: "Go" });
  await device
    .until(
      () => device.events.some((e) => e.type === "session_status" && e.data.status === "awaiting_input"),
      "a card",
    )
    .catch((error) => {
      throw new Error(
        `${error} ${JSON.stringify(device.events.find((e) => e.type === "tool_result")?.data)}`,
      );
    });
  await deliverOutbox(session);
  await sentTo(person, user.id, "sendMessage", 2);
  return { session, device, card: await lastCard(user.id) };
}

describe("telegram, every kind", { timeout: 60_000 }, () => {
  it("denies with the reason replied to a forced reply, and the model reads the reason", async () => {
    const ana = new Person("ana.reason@example.com");
    const user = { id: 8101, first_name: "Ana" };
    const id = "toolu_tg_reason";
    const { session, device, card } = await cardFor(ana, user, {
      id,
      name: "notes_write",
      input: { key: "plan", text: "ship it" },
    });
    await sendUpdate(pressFrom(user, 1, buttonsOf(card)["Deny with reason"] as string));
    const asked = await forcedReply(user.id);
    expect(asked.text).toContain("Why deny it?");
    // Pressing asked only: the card is still open.
    expect((await ana.inbox()).cards.map((c) => c.interactionId)).toContain(id);

    await sendUpdate(replyFrom(user, asked.messageId, "Not before the review"));
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({
      outcome: "denied",
      answeredBy: "Ana · Telegram",
      response: { decision: "deny", reason: "Not before the review" },
    });
    await device.waitForDone();
    expect(toolResultsOf(lastMessage((await modelRequests(stubOf(session)))[1]))).toEqual([
      { toolUseId: id, content: "User denied tool execution. Reason: Not before the review", isError: true },
    ]);
    device.close();
  });

  it("takes a reply only from the account it asked, to the message that asked, and still takes it after a restart", async () => {
    const bo = new Person("bo.reply@example.com");
    const user = { id: 8201, first_name: "Bo" };
    const id = "toolu_tg_reply_guard";
    const { device, card } = await cardFor(bo, user, {
      id,
      name: "notes_write",
      input: { key: "k", text: "v" },
    });
    await sendUpdate(pressFrom(user, 1, buttonsOf(card)["Deny with reason"] as string));
    const asked = await forcedReply(user.id);
    // Another person's linked account replying to the same message id in its own chat changes nothing.
    const eve = new Person("eve.reply@example.com");
    const other = { id: 8202, first_name: "Eve" };
    await link(eve, other);
    await sendUpdate(replyFrom(other, asked.messageId, "approve it anyway"));
    // A message that replies to nothing is told how to answer.
    await sendUpdate(textFrom(user, "please deny"));
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain("reply to the message");
    expect((await bo.inbox()).cards.map((c) => c.interactionId)).toContain(id);
    // What the forced reply asked is kept in SQLite: a restart of the channel object loses nothing.
    await runInDurableObject(channelObject(), (_, state) => state.abort("restart")).catch(() => {});
    await sendUpdate(replyFrom(user, asked.messageId, "Wrong bucket"));
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data.response).toMatchObject({ decision: "deny", reason: "Wrong bucket" });
    device.close();
  });

  it("answers a multi-select question with toggles and Done, showing each toggle", async () => {
    const cy = new Person("cy.multi@example.com");
    const user = { id: 8301, first_name: "Cy" };
    const question = "Which checks should run?";
    const { device, card } = await cardFor(cy, user, {
      id: "toolu_tg_multi",
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question,
            header: "Checks",
            multiSelect: true,
            options: [
              { label: "Lint", description: "biome" },
              { label: "Types", description: "tsc" },
              { label: "Tests", description: "vitest" },
            ],
          },
        ],
      },
    });
    expect(card.body.text).toContain("Types — tsc");
    const buttons = buttonsOf(card);
    expect(Object.keys(buttons)).toEqual(["☐ Lint", "☐ Types", "☐ Tests", "Other…", "More time"]);
    await sendUpdate(pressFrom(user, 1, buttons["☐ Lint"] as string));
    await sendUpdate(pressFrom(user, 1, buttons["☐ Tests"] as string));
    const edits = (await callsTo(user.id, "editMessageText")).filter((call) => call.body.reply_markup);
    const shown = buttonsOf(edits.at(-1)!);
    expect(Object.keys(shown)).toEqual(["☑ Lint", "☐ Types", "☑ Tests", "Done", "Other…", "More time"]);
    expect((await cy.inbox()).cards).toHaveLength(1);

    await sendUpdate(pressFrom(user, 1, shown.Done as string));
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data.response).toMatchObject({ answers: { [question]: "Lint, Tests" } });
    device.close();
  });

  it("asks several questions in turn and sends the answers once, with Other replied as text", async () => {
    const di = new Person("di.turns@example.com");
    const user = { id: 8401, first_name: "Di" };
    const { device, card } = await cardFor(di, user, {
      id: "toolu_tg_turns",
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question: "Which region?",
            header: "Region",
            multiSelect: false,
            options: [
              { label: "EU", description: "Frankfurt" },
              { label: "US", description: "Virginia" },
            ],
          },
          {
            question: "Which size?",
            header: "Size",
            multiSelect: false,
            options: [
              { label: "S", description: "1 CPU" },
              { label: "M", description: "2 CPU" },
            ],
          },
        ],
      },
    });
    expect(card.body.text).toContain("Question 1 of 2");
    await sendUpdate(pressFrom(user, 1, buttonsOf(card).EU as string));
    const next = (await callsTo(user.id, "editMessageText")).filter((call) => call.body.reply_markup).at(-1);
    expect(next?.body.text).toContain("Question 2 of 2");
    expect(Object.keys(buttonsOf(next!))).toEqual(["S", "M", "Other…", "More time"]);
    expect((await di.inbox()).cards).toHaveLength(1);

    await sendUpdate(pressFrom(user, 1, buttonsOf(next!)["Other…"] as string));
    await sendUpdate(replyFrom(user, (await forcedReply(user.id)).messageId, "XL"));
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data.response).toMatchObject({ answers: { "Which region?": "EU", "Which size?": "XL" } });
    device.close();
  });

  it("keeps planning with the feedback replied to a plan", async () => {
    const ed = new Person("ed.plan@example.com");
    const user = { id: 8501, first_name: "Ed" };
    const { device, card } = await cardFor(
      ed,
      user,
      {
        id: "toolu_tg_plan",
        name: "ExitPlanMode",
        input: { plan: "1. Add the table\n2. Backfill" },
      },
      "plan",
    );
    expect(card.body.text).toContain("Backfill");
    const buttons = buttonsOf(card);
    expect(Object.keys(buttons)).toEqual(
      expect.arrayContaining([
        "Approve, run edits",
        "Approve, review each",
        "Keep planning",
        "Keep planning, with feedback",
      ]),
    );
    await sendUpdate(pressFrom(user, 1, buttons["Keep planning, with feedback"] as string));
    await sendUpdate(replyFrom(user, (await forcedReply(user.id)).messageId, "Backfill in batches"));
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data.response).toMatchObject({
      choice: "keep_planning",
      feedback: "Backfill in batches",
    });
    device.close();
  });

  it("approves with Allow… for everywhere · 24 h: the grant is the chat account's, lasts 24 h, and answers the next call", async () => {
    const fi = new Person("fi.allow@example.com");
    const user = { id: 8601, first_name: "Fi" };
    const call = { id: "toolu_tg_allow", name: "notes_write", input: { key: "k", text: "v" } };
    const { device, card } = await cardFor(fi, user, call);
    await sendUpdate(pressFrom(user, 1, buttonsOf(card)["Allow…"] as string));
    const preview = (await callsTo(user.id, "editMessageText")).filter((c) => c.body.reply_markup).at(-1);
    // (Telegram's MarkdownV2 escapes "_", "(" and "."; the words are read without the escapes.)
    const words = String(preview?.body.text).replaceAll("\\", "");
    expect(words).toContain("Allow notes_write (matches");
    expect(words).toContain("at most 24 hours");
    const scopes = buttonsOf(preview!);
    expect(Object.keys(scopes)).not.toContain("Approve");
    await sendUpdate(pressFrom(user, 1, scopes["Everywhere · 24 h"] as string));
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({ outcome: "approved", answeredBy: "Fi · Telegram" });
    device.close();

    const listed = (await (await fi.api("GET", "/api/grants")).json()) as {
      grants: {
        rule: string;
        scope: string;
        madeBy: string;
        madeFrom: string;
        createdAt: number;
        expiresAt: number;
      }[];
    };
    expect(listed.grants).toEqual([
      expect.objectContaining({
        rule: "notes_write",
        scope: "all",
        madeBy: "Fi · Telegram",
        madeFrom: "chat",
      }),
    ]);
    const [grant] = listed.grants;
    expect(grant!.expiresAt - grant!.createdAt).toBe(86_400_000);

    // The next call of the tool, in another session, is approved by the grant: no card opens.
    const next = await fi.createSession({
      script: [toolReply([{ ...call, id: "toolu_tg_allow_next" }]), textReply("Saved again.")],
    });
    const laptop = await fi.connect(next);
    await laptop.request({ type: "send_message", text: "Again" });
    await laptop.waitForDone();
    expect(laptop.events.some((e) => e.type === "approval_required")).toBe(false);
    laptop.close();
  });

  it("shortens a long request head and tail behind See all and no answer button, whose press mints a link that opens the card once", async () => {
    const gus = new Person("gus.see@example.com");
    const user = { id: 8701, first_name: "Gus" };
    const long = "x".repeat(1_500);
    const { session, device, card } = await cardFor(gus, user, {
      id: "toolu_tg_see_all",
      name: "notes_write",
      input: { key: "k", text: long },
    });
    expect(String(card.body.text).length).toBeLessThan(1_500);
    const buttons = buttonsOf(card);
    // A button whose press mints the link: no link to the card is stored in the message. Nothing
    // answers a card the message cannot show whole.
    expect(buttons["See all"]).toMatch(/\.sa"}$/);
    expect(Object.keys(buttons)).toEqual(["See all"]);
    expect(String(card.body.text)).toMatch(/x+ … x+/);
    await sendUpdate(pressFrom(user, 1, buttons["See all"] as string));
    const sent = (await callsTo(user.id, "sendMessage")).at(-1);
    const markup = sent?.body.reply_markup as { inline_keyboard: { text: string; url?: string }[][] };
    const url = markup.inline_keyboard.flat().find((b) => b.text === "See all in Parley")?.url as string;
    expect(url).toMatch(/\/api\/channels\/see\/[A-Za-z0-9_-]{32}$/);

    // Opened from the chat app's page (another site), the first open lands on the session page.
    const headers = { "sec-fetch-site": "cross-site" };
    const first = await exports.default.fetch(url, { redirect: "manual", headers });
    expect(first.status).toBe(303);
    const location = first.headers.get("location") ?? "";
    expect(location).toContain(`/#/s/${session.sessionId}?token=`);
    const token = new URL(location.replace("#/", "")).searchParams.get("token") as string;
    // (Behind Access, as these tests run, the browser also carries the person's Access assertion.)
    const read = await gus.api("GET", `/api/sessions/${session.sessionId}`, { token });
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain(long);

    // The second open of the same link is refused, and changes nothing.
    const second = await exports.default.fetch(url, { redirect: "manual" });
    expect(second.status).toBe(404);
    expect(await second.text()).toContain("already opened or has expired");
    // Pressing See all again mints another link.
    await sendUpdate(pressFrom(user, 1, buttons["See all"] as string));
    const again = (await callsTo(user.id, "sendMessage")).at(-1)?.body.reply_markup as typeof markup;
    expect(again.inline_keyboard.flat()[0]?.url).not.toBe(url);
    device.close();
  });
});

// See all lasts as long as the account's link: a code pressed for before an unlink opens nothing
// after it, and a session page one opened before is revoked with the link.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../helpers/session-harness";
import { deliverOutbox, Person } from "../inbox/inbox-fixtures";
import {
  buttonsOf,
  callsTo,
  lastCard,
  link,
  pressFrom,
  sendUpdate,
  sentTo,
  type TelegramUser,
} from "./telegram/telegram-fixtures";

const LONG = "y".repeat(1_500);

/** A card too long for the chat, sent to `user`; answers its session and its See all button. */
async function longCard(person: Person, user: TelegramUser, id: string) {
  await link(person, user);
  const session = await person.createSession({
    script: [toolReply([{ id, name: "notes_write", input: { key: "k", text: LONG } }]), textReply("Done.")],
  });
  const device = await person.connect(session);
  await device.request({ type: "send_message", text: "Go" });
  await device.until(
    () => device.events.some((e) => e.type === "session_status" && e.data.status === "awaiting_input"),
    "a card",
  );
  device.close();
  await deliverOutbox(session);
  await sentTo(person, user.id, "sendMessage", 2);
  const seeAll = buttonsOf(await lastCard(user.id))["See all"];
  if (!seeAll) throw new Error("the long card offers no See all");
  return { session, seeAll };
}

/** Presses See all and answers the link the bot sent back. */
async function pressSeeAll(user: TelegramUser, seeAll: string): Promise<string> {
  await sendUpdate(pressFrom(user, 1, seeAll));
  const sent = (await callsTo(user.id, "sendMessage")).at(-1);
  const markup = sent?.body.reply_markup as { inline_keyboard: { text: string; url?: string }[][] };
  const url = markup.inline_keyboard.flat().find((b) => b.text === "See all in Parley")?.url;
  if (!url) throw new Error("See all sent no link");
  return url;
}

async function unlinkAll(person: Person): Promise<void> {
  const { links } = (await (await person.api("GET", "/api/channels/links")).json()) as {
    links: { linkId: string }[];
  };
  for (const { linkId } of links)
    expect((await person.api("DELETE", `/api/channels/links/${linkId}`)).status).toBe(200);
}

describe("See all and the account's link", { timeout: 60_000 }, () => {
  it("refuses a See all code redeemed after the account was unlinked, and opens no page", async () => {
    const sam = new Person("sam.seeall@example.com");
    const user = { id: 9601, first_name: "Sam" };
    const { session, seeAll } = await longCard(sam, user, "toolu_see_unlinked");
    const url = await pressSeeAll(user, seeAll);
    await unlinkAll(sam);

    const opened = await exports.default.fetch(url, { redirect: "manual" });
    expect(opened.status).toBe(404);
    expect(await opened.text()).toContain("its chat account was unlinked");
    // No share link was minted in the session for it.
    const listed = await sam.api("GET", `/api/sessions/${session.sessionId}/links`, { token: session.token });
    expect(((await listed.json()) as { links: unknown[] }).links).toEqual([]);
  });

  it("revokes a See all page opened before the unlink: its token reads nothing after it", async () => {
    const tia = new Person("tia.seeall@example.com");
    const user = { id: 9701, first_name: "Tia" };
    const { session, seeAll } = await longCard(tia, user, "toolu_see_revoked");
    const first = await exports.default.fetch(await pressSeeAll(user, seeAll), { redirect: "manual" });
    expect(first.status).toBe(303);
    const location = first.headers.get("location") ?? "";
    const token = new URL(location.replace("#/", "")).searchParams.get("token") as string;
    const read = () => tia.api("GET", `/api/sessions/${session.sessionId}`, { token });
    expect((await read()).status).toBe(200);

    await unlinkAll(tia);
    const after = await read();
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({
      error: { code: "link_revoked", message: "This share link was revoked by the session's owner" },
    });
  });
});

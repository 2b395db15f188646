// Guessing link codes: wrong codes are throttled per account and over every account, each with
// its own words in the chat, and while throttled even the right code links nothing; once the
// window has passed (the channel object's clock moved on, its alarm run) the right code links.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ChannelObject } from "../../../src/channels/channel-object";
import {
  LINK_FAILURE_WINDOW_MS,
  LINK_FAILURES_OVERALL,
  LINK_FAILURES_PER_ACCOUNT,
} from "../../../src/channels/link-throttle";
import { runInDurableObject } from "../../helpers/run-in-object";
import { Person } from "../inbox/inbox-fixtures";
import { channelObject } from "./chat-fixtures";
import { callsTo, sendUpdate, type TelegramUser, textFrom } from "./telegram/telegram-fixtures";

const WRONG = "That code is unknown, used or expired. Make a new one in your Parley inbox.";
const OWN_LIMIT = "Too many wrong link codes from this account. Try again in 15 minutes.";
const OVERALL = "Too many wrong link codes were sent to Parley lately.";

/** Sends `/start <code>` from `user` and answers what the bot said back. */
async function send(user: TelegramUser, code: string): Promise<string> {
  expect((await sendUpdate(textFrom(user, `/start ${code}`))).status).toBe(200);
  return String((await callsTo(user.id, "sendMessage")).at(-1)?.body.text);
}

async function mint(person: Person): Promise<string> {
  const minted = await person.api("POST", "/api/channels/link-codes", { body: { platform: "telegram" } });
  expect(minted.status).toBe(201);
  return ((await minted.json()) as { code: string }).code;
}

async function listed(person: Person): Promise<unknown[]> {
  return ((await (await person.api("GET", "/api/channels/links")).json()) as { links: unknown[] }).links;
}

/** Wrong codes counted now over every account (other files' tests may have sent some). */
function failuresInWindow(): Promise<number> {
  return runInDurableObject<ChannelObject, number>(channelObject(), (instance, state) => {
    const since = instance.clock.now() - LINK_FAILURE_WINDOW_MS;
    return state.storage.sql
      .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM link_failures WHERE at > ?`, since)
      .one().n;
  });
}

describe("wrong link codes", { timeout: 120_000 }, () => {
  it("are throttled per account and overall with words that say which, and a right code works once the window passed", async () => {
    const rae = new Person("rae.guess@example.com");
    const guesser = { id: 9501, first_name: "Rae" };
    for (let i = 0; i < LINK_FAILURES_PER_ACCOUNT; i += 1)
      expect(await send(guesser, `WRONG${i}AA`)).toBe(WRONG);
    expect(await send(guesser, "WRONG9AA")).toBe(OWN_LIMIT);
    // Throttled, the right code links nothing either: guessing learns nothing while it lasts.
    const code = await mint(rae);
    expect(await send(guesser, code)).toBe(OWN_LIMIT);
    expect(await listed(rae)).toEqual([]);

    // Other accounts fill the window for everyone; each still gets the plain refusal until then.
    let left = LINK_FAILURES_OVERALL - (await failuresInWindow());
    for (let id = 9510; left > 0; id += 1) {
      const other = { id, first_name: "Guess" };
      for (let i = 0; i < Math.min(left, LINK_FAILURES_PER_ACCOUNT); i += 1) {
        expect(await send(other, `NOPE${i}BBB`)).toBe(WRONG);
      }
      left -= Math.min(left, LINK_FAILURES_PER_ACCOUNT);
    }
    const fresh = { id: 9599, first_name: "Una" };
    const una = new Person("una.fresh@example.com");
    expect(await send(fresh, await mint(una))).toContain(OVERALL);
    expect(await listed(una)).toEqual([]);

    // The window passes: the alarm drops the failures, and the right codes link.
    await runInDurableObject<ChannelObject, void>(channelObject(), (instance) =>
      instance.clock.advance(LINK_FAILURE_WINDOW_MS),
    );
    await runDurableObjectAlarm(channelObject());
    expect(await failuresInWindow()).toBe(0);
    expect(await send(guesser, await mint(rae))).toContain("Linked to Parley as rae.guess@example.com");
    expect(await listed(rae)).toHaveLength(1);
    expect(await send(fresh, await mint(una))).toContain("Linked to Parley as una.fresh@example.com");
  });
});

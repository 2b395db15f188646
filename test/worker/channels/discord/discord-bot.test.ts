// The Discord bot on its own, with hooks that stand in for the channel object: a choice that needs
// text opens a modal whose submission answers with that text, and a press whose answer takes longer
// than Discord waits is acknowledged at once and told its outcome in a follow-up.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ChannelDirectory, ChatAccount } from "../../../../src/channels/channel-directory";
import { DiscordBot, type DiscordHooks } from "../../../../src/channels/discord/discord-bot";
import { configFor } from "../../../../src/config";
import { DISCORD_APPLICATION_ID } from "../../../helpers/discord-api";
import { answerOf, discordCalls, dmOf, modalFrom, pressFrom, signed } from "./discord-fixtures";

const USER = { id: "870000000000000001", username: "eli", global_name: "Eli" };
const ACCOUNT: ChatAccount = {
  linkId: "link-eli",
  platform: "discord",
  accountId: USER.id,
  name: "Eli",
  linkedAt: 1,
  person: "eli@example.com",
  threadId: dmOf(USER),
};
/** As a kind's chat view words it, for every platform (Telegram's forced reply included). */
const REASON = { prompt: "Why deny it? Reply to this message with your reason.", label: "Reason" };

type Chosen = { ref: number; code: string; text: string | undefined };

function bot(chose: (chosen: Chosen) => Promise<string | null>, answerWithinMs?: number) {
  const work: Promise<unknown>[] = [];
  const directory = {
    account: (platform: string, id: string) => (platform === "discord" && id === USER.id ? ACCOUNT : null),
  } as unknown as ChannelDirectory;
  const hooks: DiscordHooks = {
    directory,
    link: async () => ({ type: "refused", code: "invalid_code", words: "not in these tests" }),
    textWanted: async (_account, _ref, code) => (code === "r" ? REASON : null),
    seeAll: async (_account, ref, origin) =>
      ref === 12
        ? { url: `${origin}/#/inbox?card=once-${ref}` }
        : { refusal: "This card is no longer waiting." },
    modalOf: async () => null,
    submitModal: async () => "not in these tests",
    chose: (_account, ref, code, text) => chose({ ref, code, text }),
    replied: async () => "not in these tests",
    messageSession: async () => null,
  };
  const config = configFor(env).channels.discord;
  if (!config) throw new Error("the channel tests' runtime configures Discord");
  return {
    work,
    bot: new DiscordBot(config, hooks, {
      waitUntil: (task) => work.push(task),
      ...(answerWithinMs === undefined ? {} : { answerWithinMs }),
    }),
  };
}

async function post(target: DiscordBot, interaction: Record<string, unknown>, token = "tok-bot") {
  const body = JSON.stringify({ id: "1", token, ...interaction });
  return target.handle(
    new Request("https://parley.test/api/channels/discord", {
      method: "POST",
      headers: { "content-type": "application/json", ...(await signed(body)) },
      body,
    }),
  );
}

describe("the Discord bot", () => {
  it("asks for a choice's text in a modal and answers the card with what was written in it", async () => {
    const chosen: Chosen[] = [];
    const { bot: target } = bot(async (choice) => {
      chosen.push(choice);
      return null;
    });
    const opened = await answerOf(await post(target, pressFrom(USER, "12.r")));
    expect(opened.type).toBe(9);
    expect(opened.data).toMatchObject({ custom_id: "12.r", title: "Reason" });
    // The question itself: how Telegram asks for the text is not Discord's to say.
    expect(opened.data?.components).toEqual([
      {
        type: 1,
        components: [
          expect.objectContaining({ type: 4, custom_id: "text", label: "Why deny it?", required: true }),
        ],
      },
    ]);
    // Opening the modal answered nothing yet.
    expect(chosen).toEqual([]);

    const submitted = await answerOf(await post(target, modalFrom(USER, "12.r", "  touches production  ")));
    expect(submitted).toEqual({ type: 6 });
    expect(chosen).toEqual([{ ref: 12, code: "r", text: "touches production" }]);
  });

  it("sends nothing for a modal submitted empty or by an account that is not linked", async () => {
    const chosen: Chosen[] = [];
    const { bot: target } = bot(async (choice) => {
      chosen.push(choice);
      return null;
    });
    const empty = await answerOf(await post(target, modalFrom(USER, "12.r", "   ")));
    expect(empty.data).toMatchObject({ flags: 64, content: expect.stringContaining("Nothing was written") });
    const stranger = await answerOf(
      await post(target, modalFrom({ id: "870000000000000002", username: "mallory" }, "12.r", "deny it")),
    );
    expect(stranger.data).toMatchObject({ flags: 64, content: expect.stringContaining("not linked") });
    expect(chosen).toEqual([]);
  });

  it("acknowledges a press whose outcome comes later than Discord waits, and tells the presser in an ephemeral follow-up", async () => {
    let finish: (said: string | null) => void = () => {};
    const slow = new Promise<string | null>((resolve) => {
      finish = resolve;
    });
    const { bot: target, work } = bot(() => slow, 0);
    const token = `tok-late-${Date.now()}`;
    const acknowledged = await answerOf(await post(target, pressFrom(USER, "13.a"), token));
    expect(acknowledged).toEqual({ type: 6 });
    finish("Already decided: Approved by Eli · Discord.");
    await Promise.all(work);
    const followUp = (await discordCalls()).find(
      (call) => call.path === `/webhooks/${DISCORD_APPLICATION_ID}/${token}`,
    );
    expect(followUp).toMatchObject({
      method: "POST",
      authorization: null,
      body: { content: "Already decided: Approved by Eli · Discord.", flags: 64 },
    });
  });

  it("answers See all with a fresh link to the card in Parley that only the presser sees, or why not", async () => {
    const { bot: target } = bot(async () => null);
    const seen = await answerOf(await post(target, pressFrom(USER, "12.sa")));
    expect(seen).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(seen.data?.components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 5, label: "See all", url: "https://parley.test/#/inbox?card=once-12" },
        ],
      },
    ]);
    const gone = await answerOf(await post(target, pressFrom(USER, "14.sa")));
    expect(gone.data).toMatchObject({ flags: 64, content: "This card is no longer waiting." });
  });
});

// Where the links a chat message carries point, when an attacker sends webhook calls with a Host of
// their own: each bot on its own, with hooks that stand in for the channel object and record the
// origin they were given. A forged call arriving while a genuine one is being handled moves no link,
// and with PUBLIC_ORIGIN set even a genuinely signed call at another Host links only there.
import { env } from "cloudflare:workers";
import type { StateAdapter } from "chat";
import { describe, expect, it } from "vitest";
import type { ChannelDirectory, ChatAccount } from "../../../src/channels/channel-directory";
import type { ChannelHooks } from "../../../src/channels/channel-hooks";
import { DiscordBot, type DiscordHooks } from "../../../src/channels/discord/discord-bot";
import { SlackBot } from "../../../src/channels/slack/slack-bot";
import { SqlStateAdapter } from "../../../src/channels/sql-state-adapter";
import { TelegramBot } from "../../../src/channels/telegram/telegram-bot";
import { TextPrompts } from "../../../src/channels/text-prompts";
import { configFor } from "../../../src/config";
import { runInDurableObject } from "../../helpers/run-in-object";
import { slackHeaders } from "../../helpers/slack-api";
import { pressFrom as discordPress, signed } from "./discord/discord-fixtures";
import { press as slackPress } from "./slack/slack-fixtures";

const GENUINE = "https://parley.test";
const EVIL = "https://evil.example";
const CONFIGURED = "https://parley.example.com";
const channels = configFor(env).channels;

/** The platform's own account of the one person these tests press as. */
function accountOf(platform: ChatAccount["platform"], accountId: string): ChatAccount {
  return {
    linkId: `link-${platform}`,
    platform,
    accountId,
    name: "Ana",
    linkedAt: 1,
    person: "ana.origin@example.com",
    threadId: "",
  };
}

/** Hooks that answer See all with a link on the origin they were given, and keep each origin. */
function recordingHooks(account: ChatAccount) {
  const origins: string[] = [];
  const hooks: ChannelHooks & Omit<DiscordHooks, keyof ChannelHooks> = {
    directory: {
      account: (platform: string, id: string) =>
        platform === account.platform && id === account.accountId ? account : null,
    } as unknown as ChannelDirectory,
    link: async (_platform, _code, _account, origin) => {
      origins.push(origin);
      return { type: "linked", account } as Awaited<ReturnType<ChannelHooks["link"]>>;
    },
    textWanted: async () => null,
    seeAll: async (_account, ref, origin) => {
      origins.push(origin);
      return { url: `${origin}/api/channels/see/code-${ref}` };
    },
    chose: async () => null,
    replied: async () => "not in these tests",
    modalOf: async () => null,
    submitModal: async () => null,
    messageSession: async () => null,
  };
  return { hooks, origins };
}

/**
 * The bot's state, whose next call waits while `hold` is armed: a genuine call is held inside the
 * Chat SDK, after its own verification, while a forged one arrives.
 */
function holdable(state: StateAdapter) {
  let held: { release: Promise<void>; entered: () => void } | null = null;
  const proxy = new Proxy(state, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const hold = held;
        held = null;
        if (hold) {
          hold.entered();
          await hold.release;
        }
        return value.apply(target, args);
      };
    },
  });
  return {
    state: proxy,
    /** Holds the next call until `release` settles; resolves once a call is held. */
    hold(release: Promise<void>): Promise<void> {
      return new Promise((entered) => {
        held = { release, entered };
      });
    },
  };
}

/** A separate object's SQLite for the bots' Chat SDK state and prompts. */
function inOwnObject<R>(name: string, work: (sql: SqlStorage) => Promise<R>): Promise<R> {
  return runInDurableObject(env.CHANNELS.get(env.CHANNELS.idFromName(name)), (_object, state) =>
    work(state.storage.sql),
  );
}

let updateId = 7_000_000 + Math.floor(Math.random() * 1_000_000);

/** A press of See all on message ref 5 by `userId`, sent to `origin` with `secret` in Telegram's header. */
function telegramPress(origin: string, userId: number, secret: string): Request {
  updateId += 1;
  const update = {
    update_id: updateId,
    callback_query: {
      id: `cb-${updateId}`,
      from: { id: userId, first_name: "Ana", is_bot: false },
      chat_instance: "1",
      data: 'chat:{"a":"c","v":"5.sa"}',
      message: { message_id: 9, date: 1, chat: { id: userId, type: "private" }, text: "card" },
    },
  };
  return new Request(`${origin}/api/channels/telegram`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
    body: JSON.stringify(update),
  });
}

function slackRequest(origin: string, body: string, spoilSignature = false): Request {
  const headers = slackHeaders(body, "application/x-www-form-urlencoded");
  if (spoilSignature) headers["x-slack-signature"] = `v0=${"0".repeat(64)}`;
  return new Request(`${origin}/api/channels/slack`, { method: "POST", headers, body });
}

describe("links in chat messages and a forged Host", { timeout: 60_000 }, () => {
  it("Telegram: a forged call at another Host, arriving while a genuine press is handled, moves no link", async () => {
    const config = channels.telegram;
    if (!config) throw new Error("the channel tests' runtime configures Telegram");
    const userId = 930_001;
    const { hooks, origins } = recordingHooks(accountOf("telegram", String(userId)));
    await inOwnObject("origin-telegram", async (sql) => {
      const state = holdable(new SqlStateAdapter(sql, "telegram"));
      const bot = new TelegramBot(
        { ...config, publicOrigin: null },
        state.state,
        hooks,
        new TextPrompts(sql, Date.now),
      );
      // Once through, so the Chat SDK is set up before any call is held.
      expect((await bot.handle(telegramPress(GENUINE, userId, config.secretToken))).status).toBe(200);
      let release = () => {};
      const held = state.hold(new Promise<void>((resolve) => (release = resolve)));
      const genuine = bot.handle(telegramPress(GENUINE, userId, config.secretToken));
      await held;
      const forged = await bot.handle(telegramPress(EVIL, userId, "not-the-secret-token-000"));
      expect(forged.status).toBe(401);
      release();
      expect((await genuine).status).toBe(200);
    });
    expect(origins).toEqual([GENUINE, GENUINE]);
  });

  it("Telegram: with PUBLIC_ORIGIN set, a genuine call at another Host links to the configured origin", async () => {
    const config = channels.telegram;
    if (!config) throw new Error("the channel tests' runtime configures Telegram");
    const userId = 930_002;
    const { hooks, origins } = recordingHooks(accountOf("telegram", String(userId)));
    await inOwnObject("origin-telegram-configured", async (sql) => {
      const bot = new TelegramBot(
        { ...config, publicOrigin: CONFIGURED },
        new SqlStateAdapter(sql, "telegram"),
        hooks,
        new TextPrompts(sql, Date.now),
      );
      expect((await bot.handle(telegramPress(EVIL, userId, config.secretToken))).status).toBe(200);
    });
    expect(origins).toEqual([CONFIGURED]);
  });

  it("Slack: a call with a forged signature at another Host, sent while a genuine press is handled, moves no link", async () => {
    const config = channels.slack;
    if (!config) throw new Error("the channel tests' runtime configures Slack");
    const user = { id: "UORIGIN1", name: "ana" };
    const { hooks, origins } = recordingHooks(accountOf("slack", user.id));
    const background: Promise<unknown>[] = [];
    await inOwnObject("origin-slack", async (sql) => {
      const bot = new SlackBot(
        { ...config, publicOrigin: null },
        new SqlStateAdapter(sql, "slack"),
        hooks,
        (work) => background.push(work),
      );
      expect((await bot.handle(slackRequest(GENUINE, slackPress(user, "5.sa")))).status).toBe(200);
      // Both at once: the forged call starts while the genuine one waits on its own verification.
      const genuine = bot.handle(slackRequest(GENUINE, slackPress(user, "5.sa")));
      const forged = bot.handle(slackRequest(EVIL, slackPress(user, "5.sa"), true));
      expect((await forged).status).toBe(401);
      expect((await genuine).status).toBe(200);
      await Promise.all(background);
    });
    expect(origins).toEqual([GENUINE, GENUINE]);
  });

  it("Slack: with PUBLIC_ORIGIN set, a genuinely signed call at another Host links to the configured origin", async () => {
    const config = channels.slack;
    if (!config) throw new Error("the channel tests' runtime configures Slack");
    const user = { id: "UORIGIN2", name: "ana" };
    const { hooks, origins } = recordingHooks(accountOf("slack", user.id));
    const background: Promise<unknown>[] = [];
    await inOwnObject("origin-slack-configured", async (sql) => {
      const bot = new SlackBot(
        { ...config, publicOrigin: CONFIGURED },
        new SqlStateAdapter(sql, "slack"),
        hooks,
        (work) => background.push(work),
      );
      expect((await bot.handle(slackRequest(EVIL, slackPress(user, "5.sa")))).status).toBe(200);
      await Promise.all(background);
    });
    expect(origins).toEqual([CONFIGURED]);
  });

  it("Discord: a forged call at another Host is refused unheard, and with PUBLIC_ORIGIN set a signed one links to the configured origin", async () => {
    const config = channels.discord;
    if (!config) throw new Error("the channel tests' runtime configures Discord");
    const user = { id: "930000000000000003", username: "ana", global_name: "Ana" };
    const { hooks, origins } = recordingHooks(accountOf("discord", user.id));
    const post = async (target: DiscordBot, origin: string, spoil: boolean) => {
      const body = JSON.stringify({ id: "1", token: "tok-origin", ...discordPress(user, "5.sa") });
      const headers = await signed(body);
      if (spoil) headers["x-signature-ed25519"] = "0".repeat(128);
      return target.handle(
        new Request(`${origin}/api/channels/discord`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body,
        }),
      );
    };
    const unconfigured = new DiscordBot({ ...config, publicOrigin: null }, hooks, { waitUntil: () => {} });
    expect((await post(unconfigured, EVIL, true)).status).toBe(401);
    expect(origins).toEqual([]);
    const configured = new DiscordBot({ ...config, publicOrigin: CONFIGURED }, hooks, {
      waitUntil: () => {},
    });
    const answered = (await (await post(configured, EVIL, false)).json()) as {
      data: { components: { components: { url: string }[] }[] };
    };
    expect(answered.data.components[0]?.components[0]?.url).toBe(`${CONFIGURED}/api/channels/see/code-5`);
    expect(origins).toEqual([CONFIGURED]);
  });
});

// ChannelObject: the one Durable Object behind the chat webhooks. It keeps who each chat account
// is (link codes, linked accounts, what ended links still owe) and each platform's Chat SDK state
// in its SQLite, verifies a platform's request, and hands a press, a modal or a reply to the
// person's inbox, which answers the card's session as the linked account in one call.
import type { ChannelRpc, SeeAllOpening } from "../objects/contracts/channel";
import { type ObjectStores, ParleyObject } from "../objects/parley-object";
import type { ChannelAccountView, ChatPlatform } from "../protocol/reach/channels";
import { inboxStub } from "../session/inbox-report/inbox-rpc";
import { sessionStub } from "../session/session-rpc";
import { AccountLinking } from "./account-linking";
import { answerer, ChannelDirectory, type ChatAccount } from "./channel-directory";
import type { ChannelHooks } from "./channel-hooks";
import type { DiscordBot } from "./discord/discord-bot";
import { LinkRevocations, type SeeAllPage } from "./link-revocations";
import { LinkThrottle } from "./link-throttle";
import { withModals } from "./modal-hooks";
import { SeeAllCodes } from "./see-all-codes";
import type { SlackBot } from "./slack/slack-bot";
import { SqlStateAdapter } from "./sql-state-adapter";
import type { TelegramBot } from "./telegram/telegram-bot";
import { TextPrompts } from "./text-prompts";

/** The channel object's one instance (every platform's webhooks come to it). */
export const CHANNEL_OBJECT_NAME = "channels";

export function channelStub(env: Env): ChannelRpc {
  return env.CHANNELS.get(env.CHANNELS.idFromName(CHANNEL_OBJECT_NAME));
}

function view({
  person: _person,
  threadId: _threadId,
  approverId: _approverId,
  ...account
}: ChatAccount): ChannelAccountView {
  return account;
}

export class ChannelObject extends ParleyObject implements ChannelRpc {
  protected readonly name = "ChannelObject";
  private readonly directory: ChannelDirectory;
  private readonly prompts: TextPrompts;
  private readonly seeAllCodes: SeeAllCodes;
  private readonly linking: AccountLinking;
  /** The one alarm's deadlines: revocations still owed, wrong link codes leaving the throttle's window. */
  private readonly parts: ObjectStores;
  // INVARIANT: built from the configuration on the first webhook; all it keeps is in SQLite.
  private telegram: TelegramBot | null = null;
  private slack: SlackBot | null = null;
  private discord: DiscordBot | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const now = this.clock.now;
    this.directory = new ChannelDirectory(ctx.storage.sql, now);
    this.prompts = new TextPrompts(ctx.storage.sql, now);
    this.seeAllCodes = new SeeAllCodes(ctx.storage.sql, now);
    const throttle = new LinkThrottle(ctx.storage.sql, now);
    const revocations = new LinkRevocations(ctx.storage.sql, now);
    this.parts = this.newStores();
    const parts = { directory: this.directory, throttle, seeAllCodes: this.seeAllCodes, revocations, now };
    this.linking = new AccountLinking(
      { ...parts, rearm: () => this.parts.deadlines.rearm() },
      this.linkTargets(),
    );
    this.parts.deadlines.add(
      {
        name: "link revocations",
        next: () => revocations.nextDue(),
        fire: async (at) => {
          await this.linking.deliverDue(at);
          return undefined;
        },
      },
      {
        name: "link code failures",
        next: () => throttle.nextExpiry(),
        fire: (at) => {
          throttle.prune(at);
          return undefined;
        },
      },
    );
  }

  protected stores(): ObjectStores {
    return this.parts;
  }

  async mintLinkCode(person: string, platform: ChatPlatform, approverId: string | null = null) {
    return this.directory.mintCode(person, platform, approverId);
  }

  async listLinks(person: string, approverId: string | null = null): Promise<ChannelAccountView[]> {
    return this.directory.accountsOf(person, approverId).map(view);
  }

  async unlink(person: string, linkId: string, approverId: string | null = null) {
    const account = await this.linking.unlink(person, linkId, approverId);
    return account && view(account);
  }

  async unlinkApprover(approverId: string): Promise<void> {
    await this.linking.unlinkApprover(approverId);
  }

  async redeemSeeAll(code: string): Promise<SeeAllOpening | null> {
    return this.seeAllCodes.redeem(code, (grant) => {
      const account = this.directory.accountOfLink(grant.linkId);
      return account?.person === grant.person && account.accountId === grant.accountId;
    });
  }

  async seeAllPageIsLive(pageLinkId: string): Promise<boolean> {
    return this.seeAllCodes.pageIsLive(pageLinkId);
  }

  async liveLinks(linkIds: string[]): Promise<string[]> {
    return linkIds.filter((linkId) => this.directory.accountOfLink(linkId) !== null);
  }

  /** `POST /api/channels/<platform>`, forwarded by the Worker once the platform is configured. */
  protected async onRequest(request: Request): Promise<Response> {
    const platform = new URL(request.url).pathname.split("/").pop();
    switch (platform) {
      case "telegram":
        return this.telegramWebhook(request);
      case "slack":
        return this.slackWebhook(request);
      case "discord":
        return this.discordWebhook(request);
      default:
        return new Response("Not found", { status: 404 });
    }
  }

  private async discordWebhook(request: Request): Promise<Response> {
    const config = this.config.channels.discord;
    if (!config) return new Response("Not found", { status: 404 });
    if (!this.discord) {
      const [{ DiscordBot }, { DISCORD_MODAL_INPUTS }] = await Promise.all([
        import("./discord/discord-bot"),
        import("./discord/discord-form"),
      ]);
      this.discord = new DiscordBot(config, withModals(this.env, this.hooks(), DISCORD_MODAL_INPUTS), {
        waitUntil: (work) => this.ctx.waitUntil(work),
      });
    }
    return this.discord.handle(request);
  }

  private async telegramWebhook(request: Request): Promise<Response> {
    const config = this.config.channels.telegram;
    if (!config) return new Response("Not found", { status: 404 });
    if (!this.telegram) {
      const { TelegramBot } = await import("./telegram/telegram-bot");
      const state = new SqlStateAdapter(this.ctx.storage.sql, "telegram", this.clock.now);
      this.telegram = new TelegramBot(config, state, this.hooks(), this.prompts);
    }
    return this.telegram.handle(request);
  }

  private async slackWebhook(request: Request): Promise<Response> {
    const config = this.config.channels.slack;
    if (!config) return new Response("Not found", { status: 404 });
    if (!this.slack) {
      const [{ SlackBot }, { SLACK_MODAL_INPUTS }] = await Promise.all([
        import("./slack/slack-bot"),
        import("./slack/slack-adapter"),
      ]);
      const hooks = withModals(this.env, this.hooks(), SLACK_MODAL_INPUTS);
      const state = new SqlStateAdapter(this.ctx.storage.sql, "slack", this.clock.now);
      this.slack = new SlackBot(config, state, hooks, (work) => this.ctx.waitUntil(work));
    }
    return this.slack.handle(request);
  }

  private hooks(): ChannelHooks {
    return {
      directory: this.directory,
      link: (platform, code, account, origin) => this.linking.link(platform, code, account, origin),
      textWanted: (account, ref, code) =>
        inboxStub(this.env, account.person).chatTextWanted(ref, account.linkId, code),
      seeAll: (account, ref, origin) => this.seeAll(account, ref, origin),
      chose: (account, ref, code, text) => this.chose(account, ref, code, text ?? null),
      replied: async (account, reply) =>
        (await inboxStub(this.env, account.person).answerAsAccount(answerer(account), {
          type: "reply",
          ...reply,
        })) ?? "",
    };
  }

  private linkTargets() {
    return {
      addChatLink: async (account: ChatAccount, origin: string) => {
        await inboxStub(this.env, account.person).addChatLink({
          linkId: account.linkId,
          platform: account.platform,
          accountId: account.accountId,
          name: account.name,
          threadId: account.threadId,
          origin,
          approverId: account.approverId,
        });
      },
      removeChatLink: (person: string, linkId: string) => inboxStub(this.env, person).removeChatLink(linkId),
      revokePage: async (person: string, page: SeeAllPage) => {
        const revoked = await sessionStub(this.env, page.sessionId).fromInbox(
          { kind: "person", person },
          { type: "revoke_opened", linkId: page.pageLinkId },
        );
        // A session gone or no longer theirs has no page left to revoke.
        const gone = !revoked.ok && ["unknown_session", "forbidden"].includes(revoked.error.code);
        if (!revoked.ok && !gone) throw new Error(revoked.error.message);
      },
    };
  }

  private async seeAll(account: ChatAccount, ref: number, origin: string) {
    // A See all page answers as its person: an approver answers long cards on their own page.
    if (account.approverId) return { refusal: "See this card whole on your answering page in Parley." };
    const card = await inboxStub(this.env, account.person).chatCard(ref, account.linkId);
    if (!card) return { refusal: "This button is not for a card of yours." };
    const code = await this.seeAllCodes.mint({
      person: account.person,
      platform: account.platform,
      accountId: account.accountId,
      name: account.name,
      sessionId: card.sessionId,
      interactionId: card.interactionId,
      linkId: account.linkId,
    });
    return { url: `${origin}/api/channels/see/${code}` };
  }

  /**
   * Choice `code` of message `ref` (with the text it asked for), answered by the person's inbox in
   * one call as the linked account itself (a device of its person: the session checks the person
   * and records "Ana · Telegram"); what to tell the account, or null.
   */
  private chose(
    account: ChatAccount,
    ref: number,
    code: string,
    text: string | null,
  ): Promise<string | null> {
    return inboxStub(this.env, account.person).answerAsAccount(answerer(account), {
      type: "press",
      ref,
      code,
      text,
    });
  }
}

// Telegram's side of the channel object, over the Chat SDK (which verifies the secret token header
// and drops repeated updates): links accounts, turns a press into the card's command, asks for a
// choice's text with a forced reply, and sends a reply to a card's message to its session.
import type { TelegramAdapter } from "@chat-adapter/telegram";
import {
  type ActionEvent,
  Actions,
  Card,
  CardText,
  Chat,
  LinkButton,
  type Message,
  type SlashCommandEvent,
  type StateAdapter,
  type Thread,
} from "chat";
import type { TelegramConfig } from "../../config";
import { inert } from "../../protocol/text/inert-text";
import { linkedWords } from "../account-linking";
import { CHOICE_ACTION, readChoiceValue, SEE_ALL } from "../card-message";
import type { ChannelHooks } from "../channel-hooks";
import { LinkOrigin, sameSecret } from "../link-origin";
import type { TextPrompts } from "../text-prompts";
import { askForText, telegramAdapter } from "./telegram-adapter";

export type { ChannelHooks };

export const NOT_LINKED =
  "This Telegram account is not linked to Parley, so it cannot answer. Open your Parley inbox and choose Link Telegram.";
export const NOT_DIRECT = "Parley answers only in a direct message with this bot.";
const LINK_HELP = "Send /link followed by the code your Parley inbox shows under Link Telegram.";
export const REPLY_HELP =
  "To answer a card, press its buttons. To send text (a reason, an answer, feedback), reply to the message where Parley asked for it. To send a card's session a message, reply to the card's message.";

/** The header Telegram sends the webhook's secret token in. */
const SECRET_HEADER = "x-telegram-bot-api-secret-token";

type TelegramChat = { id: number; type: string };
type TelegramMessage = {
  message_id: number;
  chat?: TelegramChat;
  reply_to_message?: { message_id: number };
};

export class TelegramBot {
  private readonly chat: Chat<{ telegram: TelegramAdapter }>;
  private readonly adapter: TelegramAdapter;
  private readonly origin: LinkOrigin;
  private readonly secretToken: string;

  constructor(
    config: TelegramConfig,
    state: StateAdapter,
    hooks: ChannelHooks,
    private readonly prompts: TextPrompts,
  ) {
    this.adapter = telegramAdapter(config);
    this.origin = new LinkOrigin(config.publicOrigin);
    this.secretToken = config.secretToken;
    this.chat = new Chat({
      adapters: { telegram: this.adapter },
      state,
      userName: config.botUserName ?? "parley",
      logger: "warn",
    });
    this.chat.onSlashCommand(["/start", "/link"], (event) => this.link(event, hooks));
    this.chat.onAction(CHOICE_ACTION, (event) => this.choose(event, hooks));
    this.chat.onDirectMessage((thread, message) => this.replied(thread, message, hooks));
  }

  /** Verifies and handles one webhook call; answers once its work is done and stored. */
  async handle(request: Request): Promise<Response> {
    // The same check the adapter makes before it routes the update (which it then refuses).
    if (sameSecret(request.headers.get(SECRET_HEADER), this.secretToken)) this.origin.verified(request);
    const work: Promise<unknown>[] = [];
    const response = await this.chat.webhooks.telegram(request, { waitUntil: (task) => work.push(task) });
    await Promise.allSettled(work);
    return response;
  }

  private async link(event: SlashCommandEvent, hooks: ChannelHooks): Promise<void> {
    const chat = (event.raw as { chat?: TelegramChat }).chat;
    if (chat?.type !== "private") return void (await event.channel.post(NOT_DIRECT));
    const code = event.text.trim();
    if (!code) return void (await event.channel.post(LINK_HELP));
    const linked = await hooks.link(
      "telegram",
      code,
      {
        accountId: event.user.userId,
        name: event.user.fullName || event.user.userName || event.user.userId,
        threadId: event.channel.id,
      },
      this.origin.value,
    );
    if (linked.type === "refused") return void (await event.channel.post(linked.words));
    await event.channel.post(linkedWords(linked.account));
  }

  private async choose(event: ActionEvent, hooks: ChannelHooks): Promise<void> {
    // What a press is told may quote the card (a refusal naming a form's field): inert, as the card is.
    const tell = async (text: string) => {
      if (event.thread) await event.thread.post(inert(text));
    };
    const chat = (event.raw as { message?: { chat?: TelegramChat } }).message?.chat;
    if (chat?.type !== "private") return tell(NOT_DIRECT);
    const account = hooks.directory.account("telegram", event.user.userId);
    if (!account) return tell(NOT_LINKED);
    const choice = readChoiceValue(event.value);
    if (!choice) return tell("This button is not one of Parley's.");
    if (choice.code === SEE_ALL) {
      const seen = await hooks.seeAll(account, choice.ref, this.origin.value);
      if ("refusal" in seen) return tell(seen.refusal);
      // A button, not a link in the text: Telegram fetches a text link for its preview, which would spend it.
      if (event.thread)
        await event.thread.post(
          Card({
            children: [
              CardText("The whole card, in Parley. The link opens once, within 5 minutes."),
              Actions([LinkButton({ url: seen.url, label: "See all in Parley" })]),
            ],
          }),
        );
      return;
    }
    const wanted = await hooks.textWanted(account, choice.ref, choice.code);
    if (wanted && event.thread) {
      const messageId = await askForText(this.adapter, chat.id, wanted);
      this.prompts.asked("telegram", event.thread.id, messageId, account.accountId, choice);
      return;
    }
    const reply = await hooks.chose(account, choice.ref, choice.code);
    if (reply) await tell(reply);
  }

  /**
   * A direct message: the reply to a forced reply answers its card's choice with the text; a reply
   * to a card's message (or its receipt) is sent to the card's session as a message.
   */
  private async replied(thread: Thread, message: Message, hooks: ChannelHooks): Promise<void> {
    const raw = message.raw as TelegramMessage;
    if (raw.chat?.type !== "private") return;
    const account = hooks.directory.account("telegram", message.author.userId);
    if (!account) return void (await thread.post(NOT_LINKED));
    const repliedTo = raw.reply_to_message?.message_id;
    if (repliedTo === undefined) return void (await thread.post(REPLY_HELP));
    const prompt = this.prompts.find("telegram", thread.id, String(repliedTo), account.accountId);
    const text = message.text.trim();
    if (prompt) {
      if (!text) return void (await thread.post(REPLY_HELP));
      const reply = await hooks.chose(account, prompt.ref, prompt.code, text);
      if (reply) await thread.post(inert(reply));
      return;
    }
    // Ids as the sender keeps a card's message: `<chat>:<message>`.
    const told = await hooks.replied(account, {
      repliedTo: `${raw.chat.id}:${repliedTo}`,
      text: message.text,
      replyId: `${raw.chat.id}:${raw.message_id}`,
    });
    await thread.post(inert(told));
  }
}

// Slack's side of the channel object: the Chat SDK verifies each request (`X-Slack-Signature` over
// `v0:<timestamp>:<body>`, refused outside 5 minutes) and routes events, button presses, modal
// submissions and the `/parley` command; this file links accounts, turns a press into the card's
// command and a reply in a card's thread into a message to its session. Refusals of a press are
// ephemeral: only the account that pressed sees them.
import type { SlackAdapter } from "@chat-adapter/slack";
import {
  type ActionEvent,
  Actions,
  type Author,
  Card,
  CardText,
  Chat,
  LinkButton,
  type Message,
  Modal,
  type ModalSubmitEvent,
  type SlashCommandEvent,
  type StateAdapter,
  TextInput,
  type Thread,
} from "chat";
import type { SlackConfig } from "../../config";
import { field } from "../../interactions/kinds/chat-view";
import { inert } from "../../protocol/text/inert-text";
import { linkedWords } from "../account-linking";
import { FILL_IN } from "../card-choices";
import { CHOICE_ACTION, readChoiceValue, SEE_ALL } from "../card-message";
import type { ChatAccount } from "../channel-directory";
import type { ChannelHooks } from "../channel-hooks";
import { firstSentence, short } from "../fit-text";
import { LinkOrigin } from "../link-origin";
import type { ModalHooks } from "../modal-hooks";
import { slackAdapter } from "./slack-adapter";
import { escapeMrkdwn } from "./slack-card";

export const NOT_LINKED =
  "This Slack account is not linked to Parley, so it cannot answer. Open your Parley inbox and choose Link Slack.";
export const NOT_DIRECT = "Parley answers only in a direct message with this app.";
const LINK_HELP =
  "Send `/parley link <code>` with the code your Parley inbox shows under Link Slack. To send a card's session a message, reply in the card's thread.";
/** The callback id of a form filled in a modal; its metadata is `<ref>.f` and each input's id `i<n>`. */
const FORM_MODAL = "parley-form";
/** Slack's longest modal title and input label. */
const MODAL_TITLE_CHARS = 24;
const INPUT_LABEL_CHARS = 48;
/** The callback id of the modal that asks for a choice's text; its metadata is `<ref>.<code>`. */
const TEXT_MODAL = "parley-text";
const TEXT_FIELD = "text";
/** Slack answers a request it waited more than 3 seconds for with an error: answer sooner, work on. */
const ANSWER_WITHIN_MS = 2_500;

export class SlackBot {
  private readonly chat: Chat<{ slack: SlackAdapter }>;
  private readonly adapter: SlackAdapter;
  private readonly origin: LinkOrigin;

  constructor(
    config: SlackConfig,
    state: StateAdapter,
    private readonly hooks: ChannelHooks & ModalHooks,
    /** Keeps the object at work after Slack has its answer (the object's `waitUntil`). */
    private readonly keepAlive: (work: Promise<unknown>) => void,
  ) {
    this.origin = new LinkOrigin(config.publicOrigin);
    // The adapter verifies each request's signature, and tells the origin once it did.
    this.adapter = slackAdapter(config, (request) => this.origin.verified(request));
    this.chat = new Chat({ adapters: { slack: this.adapter }, state, userName: "parley", logger: "warn" });
    this.chat.onSlashCommand("/parley", (event) => this.command(event));
    this.chat.onDirectMessage((thread, message) => this.directMessage(thread, message));
    this.chat.onAction(CHOICE_ACTION, (event) => this.choose(event));
    this.chat.onModalSubmit(TEXT_MODAL, (event) => this.submitText(event));
    this.chat.onModalSubmit(FORM_MODAL, (event) => this.submitForm(event));
  }

  /** Verifies and handles one request; answers once its work is done, or before Slack gives up. */
  async handle(request: Request): Promise<Response> {
    const work: Promise<unknown>[] = [];
    const response = await this.chat.webhooks.slack(request, { waitUntil: (task) => work.push(task) });
    const done = Promise.allSettled(work);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), ANSWER_WITHIN_MS);
    });
    if ((await Promise.race([done, late])) === "late") this.keepAlive(done);
    clearTimeout(timer);
    return response;
  }

  /** `/parley link <code>` from anywhere (Slack signs who sent it); the cards go to the direct message. */
  private async command(event: SlashCommandEvent): Promise<void> {
    const tell = async (text: string) => {
      await event.channel.postEphemeral(event.user, text, { fallbackToDM: true });
    };
    const [verb, code, ...rest] = event.text.trim().split(/\s+/);
    if (verb !== "link" || !code || rest.length > 0) return tell(LINK_HELP);
    const threadId = await this.adapter.openDM(event.user.userId);
    await tell(await this.link(event.user, code, threadId));
  }

  /** A direct message to the app: a reply in a card's thread, or else the code alone, or `link <code>`. */
  private async directMessage(thread: Thread, message: Message): Promise<void> {
    if (message.author.isMe || message.author.isBot) return;
    const raw = message.raw as { ts?: string; thread_ts?: string };
    // A card is posted at the top of the direct message: its thread's `thread_ts` is the card's `ts`.
    if (raw.ts && raw.thread_ts && raw.thread_ts !== raw.ts)
      return this.replied(thread, message, raw.thread_ts, raw.ts);
    const words = message.text.trim().split(/\s+/);
    const code = words[0] === "link" ? words[1] : words.length === 1 ? words[0] : undefined;
    if (!code) return void (await thread.post(LINK_HELP));
    await thread.post(await this.link(message.author, code, thread.id));
  }

  /** A message in the thread of message `repliedTo`: sent to the session of the card that message is. */
  private async replied(thread: Thread, message: Message, repliedTo: string, replyId: string) {
    const account = this.hooks.directory.account("slack", message.author.userId);
    const told = account
      ? await this.hooks.replied(account, { repliedTo, text: message.text, replyId })
      : NOT_LINKED;
    // Posted as the receipts are, literal: what it says may quote the session's title.
    const literal = escapeMrkdwn(inert(told));
    const { channel, threadTs } = this.adapter.decodeThreadId(thread.id);
    await this.adapter.webClient.chat.postMessage({
      channel,
      thread_ts: threadTs || repliedTo,
      text: literal,
      blocks: [{ type: "section", text: { type: "plain_text", text: inert(told), emoji: false } }],
      unfurl_links: false,
      unfurl_media: false,
      mrkdwn: false,
    });
  }

  /** Spends `code` for `user`: what to tell them (the person it joined, or why it was refused). */
  private async link(user: Author, code: string, threadId: string): Promise<string> {
    const linked = await this.hooks.link(
      "slack",
      code,
      { accountId: user.userId, name: user.fullName || user.userName || user.userId, threadId },
      this.origin.value,
    );
    return linked.type === "linked" ? linkedText(linked.account) : linked.words;
  }

  private async choose(event: ActionEvent): Promise<void> {
    // What a press is told may quote the card (a refusal naming a form's field): literal, as the card is.
    const tell = async (text: string) => {
      await event.thread?.postEphemeral(event.user, escapeMrkdwn(inert(text)), { fallbackToDM: false });
    };
    if (!event.thread || !this.adapter.isDM(event.threadId)) return tell(NOT_DIRECT);
    const account = this.hooks.directory.account("slack", event.user.userId);
    if (!account) return tell(NOT_LINKED);
    const choice = readChoiceValue(event.value);
    if (!choice) return tell("This button is not one of Parley's.");
    if (choice.code === SEE_ALL) {
      const seen = await this.hooks.seeAll(account, choice.ref, this.origin.value);
      if ("refusal" in seen) return tell(seen.refusal);
      // A button, not a link in the text: an unfurled link would be fetched, which would spend it.
      await event.thread.postEphemeral(
        event.user,
        Card({
          children: [
            CardText("The whole card, in Parley. The link opens once, within 5 minutes."),
            Actions([LinkButton({ url: seen.url, label: "See all in Parley" })]),
          ],
        }),
        { fallbackToDM: false },
      );
      return;
    }
    if (choice.code === FILL_IN) {
      const form = await this.hooks.modalOf(account, choice.ref);
      if (!form) return tell("This form is answered in Parley: open it with Open in Parley.");
      await event.openModal(
        Modal({
          callbackId: FORM_MODAL,
          // The form's words are its server's: shown inert, as every card's are.
          title: short(inert(textField(form.request, "message") ?? "Fill in the form"), MODAL_TITLE_CHARS),
          submitLabel: "Send",
          privateMetadata: `${choice.ref}.${FILL_IN}`,
          children: form.inputs.map((input, index) =>
            TextInput({
              id: `i${index}`,
              label: short(inert(input.label), INPUT_LABEL_CHARS),
              optional: !input.required,
              ...(input.description ? { placeholder: short(inert(input.description), 150) } : {}),
              ...(input.value !== null ? { initialValue: input.value } : {}),
              ...(input.maxLength ? { maxLength: input.maxLength } : {}),
            }),
          ),
        }),
      );
      return;
    }
    const text = await this.hooks.textWanted(account, choice.ref, choice.code);
    if (text) {
      await event.openModal(
        Modal({
          callbackId: TEXT_MODAL,
          // Slack allows 24 characters in a modal's title.
          title: text.label.slice(0, 24),
          submitLabel: "Send",
          privateMetadata: `${choice.ref}.${choice.code}`,
          children: [
            TextInput({
              id: TEXT_FIELD,
              label: firstSentence(text.prompt),
              multiline: true,
              maxLength: 2000,
            }),
          ],
        }),
      );
      return;
    }
    const reply = await this.hooks.chose(account, choice.ref, choice.code);
    if (reply) await tell(reply);
  }

  /** The modal's text answers the card; a refusal is shown in the modal, under the field. */
  private async submitText(event: ModalSubmitEvent) {
    const refuse = (message: string) => ({
      action: "errors" as const,
      errors: { [TEXT_FIELD]: inert(message) },
    });
    const account = this.hooks.directory.account("slack", event.user.userId);
    if (!account) return refuse(NOT_LINKED);
    const choice = readChoiceValue(event.privateMetadata);
    if (!choice) return refuse("This form is not one of Parley's.");
    const text = event.values[TEXT_FIELD]?.trim() ?? "";
    if (!text) return refuse("Write something, or close this and choose another button.");
    const reply = await this.hooks.chose(account, choice.ref, choice.code, text);
    return reply ? refuse(reply) : undefined;
  }

  /** The form's texts answer the card; a refusal (a value the form does not take) is shown in the modal. */
  private async submitForm(event: ModalSubmitEvent) {
    const refuse = (message: string) => ({ action: "errors" as const, errors: { i0: inert(message) } });
    const account = this.hooks.directory.account("slack", event.user.userId);
    if (!account) return refuse(NOT_LINKED);
    const choice = readChoiceValue(event.privateMetadata);
    if (!choice || choice.code !== FILL_IN) return refuse("This form is not one of Parley's.");
    const form = await this.hooks.modalOf(account, choice.ref);
    if (!form) return refuse("This form is answered in Parley: open it with Open in Parley.");
    const texts = Object.fromEntries(
      form.inputs.map((input, index) => [input.name, event.values[`i${index}`] ?? ""]),
    );
    const reply = await this.hooks.submitModal(account, choice.ref, texts);
    return reply ? refuse(reply) : undefined;
  }
}

function linkedText(account: ChatAccount): string {
  return linkedWords(account, "in this app's direct messages");
}

/** A request's text field, read defensively; null when it is not a non-empty string. */
function textField(request: unknown, name: string): string | null {
  const value = field(request, name);
  return typeof value === "string" && value ? value : null;
}

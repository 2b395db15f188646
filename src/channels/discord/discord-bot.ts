// Discord's side of the channel object: verifies each interaction's Ed25519 signature, answers a
// ping, links an account on `/parley link <code>` in a direct message, turns a button press (or the
// modal a choice that needs text opens) into the card's command and a Message modal into a message
// to the card's session, and refuses everything else.
import { verifyKey } from "discord-interactions";
import type { DiscordConfig } from "../../config";
import { inert } from "../../protocol/text/inert-text";
import { linkedWords } from "../account-linking";
import { readChoiceValue, SEE_ALL } from "../card-message";
import type { ChatAccount } from "../channel-directory";
import type { ChannelHooks, TextWanted } from "../channel-hooks";
import { firstSentence, short } from "../fit-text";
import { linkOrigin } from "../link-origin";
import { FILL_IN, type ModalHooks } from "../modal-hooks";
import { DiscordApi, EPHEMERAL } from "./discord-api";
import { formModal, modalTexts } from "./discord-form";
import {
  directChannelOf,
  INTERACTION,
  Interaction,
  linkCodeOf,
  modalTextOf,
  senderOf,
} from "./discord-interaction";
import { MESSAGE_BUTTON, MESSAGE_INPUT, messageModal, messageOfModal } from "./discord-message-modal";

/** Every platform's hooks, and the small forms a Discord modal can fill in. */
export type DiscordHooks = ChannelHooks & ModalHooks;

export const DISCORD_NOT_LINKED =
  "This Discord account is not linked to Parley, so it cannot answer. Open your Parley inbox and choose Link Discord.";
export const DISCORD_NOT_DIRECT = "Parley answers only in a direct message with this bot.";
const LINK_HELP = "Send /parley link followed by the code your Parley inbox shows under Link Discord.";
const NOT_OURS = "This button is not one of Parley's.";
const NOTHING_WRITTEN = "Nothing was written, so nothing was sent.";
const DISCORD_NOT_A_CARD = "Not sent: that message is not one of your Parley cards.";

/** Discord signs the time it sent an interaction; one older (or further ahead) than this is a replay. */
const MAX_AGE_S = 300;
/** Discord waits 3 s for an answer; past this the press is acknowledged and its outcome follows. */
const ANSWER_WITHIN_MS = 2_000;
/** The one text input of a modal, and Discord's limits on a modal's title and an input's label. */
const TEXT_INPUT = "text";
const MAX_MODAL_TITLE = 45;
const MAX_INPUT_LABEL = 45;
const MAX_TEXT = 1_000;

/** Discord's interaction response types. */
const RESPONSE = { pong: 1, message: 4, deferredUpdate: 6, modal: 9 } as const;

/** An answer to the presser; what it says may quote the card (a refusal naming a form's field), so it is inert. */
function reply(content: string, ephemeral = true): Response {
  return Response.json({
    type: RESPONSE.message,
    data: {
      content: inert(content),
      allowed_mentions: { parse: [] },
      ...(ephemeral ? { flags: EPHEMERAL } : {}),
    },
  });
}

export interface DiscordBotOptions {
  /** Keeps the work of a press that outlived its answer going (the object's `waitUntil`). */
  waitUntil(work: Promise<unknown>): void;
  answerWithinMs?: number;
}

export class DiscordBot {
  private readonly api: DiscordApi;

  constructor(
    private readonly config: DiscordConfig,
    private readonly hooks: DiscordHooks,
    private readonly options: DiscordBotOptions,
  ) {
    this.api = new DiscordApi(config);
  }

  /** Verifies and answers one interaction; a forged or unreadable one changes nothing. */
  async handle(request: Request): Promise<Response> {
    const signature = request.headers.get("x-signature-ed25519");
    const timestamp = request.headers.get("x-signature-timestamp");
    const body = await request.text();
    if (!signature || !timestamp || !(await verifyKey(body, signature, timestamp, this.config.publicKey)))
      return new Response("invalid request signature", { status: 401 });
    if (!(Math.abs(Date.now() / 1000 - Number(timestamp)) <= MAX_AGE_S))
      return new Response("request timestamp outside the allowed window", { status: 401 });
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return new Response("interaction is not JSON", { status: 400 });
    }
    const parsed = Interaction.safeParse(json);
    if (!parsed.success) return new Response("not an interaction Parley reads", { status: 400 });
    const interaction = parsed.data;
    switch (interaction.type) {
      case INTERACTION.ping:
        return Response.json({ type: RESPONSE.pong });
      case INTERACTION.command:
        return this.link(interaction, linkOrigin(this.config.publicOrigin, request));
      case INTERACTION.component:
      case INTERACTION.modalSubmit:
        return this.choose(interaction, linkOrigin(this.config.publicOrigin, request));
      default:
        return new Response("interaction type not handled", { status: 400 });
    }
  }

  private async link(interaction: Interaction, origin: string): Promise<Response> {
    const code = linkCodeOf(interaction);
    if (code === null) return reply(LINK_HELP);
    const channel = directChannelOf(interaction);
    const sender = senderOf(interaction);
    if (!channel || !sender) return reply(DISCORD_NOT_DIRECT);
    if (!code.trim()) return reply(LINK_HELP);
    const linked = await this.hooks.link(
      "discord",
      code,
      { accountId: sender.id, name: sender.name, threadId: channel },
      origin,
    );
    if (linked.type === "refused") return reply(linked.words);
    return reply(linkedWords(linked.account), false);
  }

  private async choose(interaction: Interaction, origin: string): Promise<Response> {
    const sender = senderOf(interaction);
    if (!directChannelOf(interaction) || !sender) return reply(DISCORD_NOT_DIRECT);
    const account = this.hooks.directory.account("discord", sender.id);
    if (!account) return reply(DISCORD_NOT_LINKED);
    const customId = interaction.data?.custom_id;
    if (interaction.type === INTERACTION.component && customId === MESSAGE_BUTTON)
      return this.openMessage(interaction, account);
    const messageId = interaction.type === INTERACTION.modalSubmit ? messageOfModal(customId) : null;
    if (messageId !== null) return this.sendMessage(interaction, account, messageId);
    const choice = readChoiceValue(customId);
    if (!choice) return reply(NOT_OURS);
    if (choice.code === FILL_IN) {
      const form = await this.hooks.modalOf(account, choice.ref);
      if (!form) return reply("This form is answered in Parley: open it with Open in Parley.");
      if (interaction.type !== INTERACTION.modalSubmit)
        return Response.json({
          type: RESPONSE.modal,
          data: formModal(choice.ref, form.request, form.inputs),
        });
      const texts = modalTexts(form.inputs, (id) => modalTextOf(interaction, id));
      return this.answer(interaction.token, this.hooks.submitModal(account, choice.ref, texts));
    }
    if (choice.code === SEE_ALL) {
      const seen = await this.hooks.seeAll(account, choice.ref, origin);
      if ("refusal" in seen) return reply(seen.refusal);
      return Response.json({
        type: RESPONSE.message,
        data: {
          content: "The whole card, in Parley (the link works once, for a few minutes):",
          flags: EPHEMERAL,
          components: [{ type: 1, components: [{ type: 2, style: 5, label: "See all", url: seen.url }] }],
        },
      });
    }
    let text: string | undefined;
    if (interaction.type === INTERACTION.modalSubmit) {
      text = modalTextOf(interaction, TEXT_INPUT)?.trim() ?? "";
      if (!text) return reply(NOTHING_WRITTEN);
    } else {
      const wanted = await this.hooks.textWanted(account, choice.ref, choice.code);
      if (wanted) return modal(choice.ref, choice.code, wanted);
    }
    return this.answer(interaction.token, this.hooks.chose(account, choice.ref, choice.code, text));
  }

  /** Message, on a card or its receipt: the modal, when the message it sits on is a card sent to this account. */
  private async openMessage(interaction: Interaction, account: ChatAccount): Promise<Response> {
    const messageId = interaction.message?.id;
    const session = messageId ? await this.hooks.messageSession(account, messageId) : null;
    if (!messageId || !session) return reply(DISCORD_NOT_A_CARD);
    return Response.json({ type: RESPONSE.modal, data: messageModal(messageId, session.title) });
  }

  /**
   * The Message modal's text, sent as a chat reply to the card's message is: the session is read
   * again from the inbox (the message, sent to this account), never taken from the modal.
   */
  private async sendMessage(interaction: Interaction, account: ChatAccount, messageId: string) {
    const text = modalTextOf(interaction, MESSAGE_INPUT) ?? "";
    if (!text.trim()) return reply(NOTHING_WRITTEN);
    const sent = this.hooks.replied(account, { repliedTo: messageId, text, replyId: interaction.id });
    return this.answer(interaction.token, sent);
  }

  /**
   * The press's outcome as its answer when it comes in time: nothing to say leaves the message to
   * the inbox's edit, anything else is said to the presser alone. Later, the press is acknowledged
   * and what there is to say follows as a follow-up.
   */
  private async answer(interactionToken: string, outcome: Promise<string | null>): Promise<Response> {
    const late = Symbol("late");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<typeof late>((resolve) => {
      timer = setTimeout(() => resolve(late), this.options.answerWithinMs ?? ANSWER_WITHIN_MS);
    });
    const first = await Promise.race([outcome, deadline]).finally(() => clearTimeout(timer));
    if (first !== late) return first ? reply(first) : Response.json({ type: RESPONSE.deferredUpdate });
    this.options.waitUntil(
      outcome
        .then(async (said) => {
          if (said) await this.api.followUp(interactionToken, inert(said));
        })
        .catch((error) => console.warn("DiscordBot follow-up failed", String(error))),
    );
    return Response.json({ type: RESPONSE.deferredUpdate });
  }
}

/** Discord's modal asking for the text a choice needs; its submission carries the same `<ref>.<code>`. */
function modal(ref: number, code: string, wanted: TextWanted): Response {
  const question = firstSentence(wanted.prompt);
  return Response.json({
    type: RESPONSE.modal,
    data: {
      custom_id: `${ref}.${code}`,
      title: short(wanted.label, MAX_MODAL_TITLE),
      components: [
        {
          type: 1,
          components: [
            {
              type: 4,
              custom_id: TEXT_INPUT,
              style: 2,
              label: short(question, MAX_INPUT_LABEL),
              required: true,
              max_length: MAX_TEXT,
            },
          ],
        },
      ],
    },
  });
}

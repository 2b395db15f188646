// What a platform with modals (Slack, Discord) asks of the channel object beyond every platform's
// hooks: the inputs a card's "Fill in" button stands for (a form that fits the platform's modal),
// and the texts written there sent to the card's session as the linked account (by the person's
// inbox, in one call); and the session a card's message belongs to, for a modal that writes to it.

import type { ModalField } from "../interactions/kinds/chat-view";
import { type ChatMessageSession, inboxStub } from "../session/inbox-report/inbox-rpc";
import { modalFieldsOf } from "./card-choices";
import { answerer, type ChatAccount } from "./channel-directory";
import type { ChannelHooks } from "./channel-hooks";

export { FILL_IN } from "./card-choices";

export interface ModalHooks {
  /** The card message `ref` of `account` stands for, when it fits a modal of the platform's size. */
  modalOf(account: ChatAccount, ref: number): Promise<{ request: unknown; inputs: ModalField[] } | null>;
  /** Answers that card with the modal's texts by field name: what to tell the account, or null. */
  submitModal(account: ChatAccount, ref: number, texts: Record<string, string>): Promise<string | null>;
  /** The session of card message `messageId` (the platform's id) sent to `account`, with its title; null otherwise. */
  messageSession(account: ChatAccount, messageId: string): Promise<ChatMessageSession | null>;
}

/** Every platform's hooks, and the forms a modal of at most `maxInputs` text inputs fills in. */
export function withModals(env: Env, base: ChannelHooks, maxInputs: number): ChannelHooks & ModalHooks {
  const cardOf = (account: ChatAccount, ref: number) =>
    inboxStub(env, account.person).chatCard(ref, account.linkId);
  return {
    ...base,
    async modalOf(account, ref) {
      const card = await cardOf(account, ref);
      const inputs = card ? modalFieldsOf(card, maxInputs) : null;
      return card && inputs ? { request: card.request, inputs } : null;
    },
    // The inbox checks the texts against the card's form and sends them to its session in one call.
    submitModal: (account, ref, texts) =>
      inboxStub(env, account.person).answerAsAccount(answerer(account), {
        type: "modal",
        ref,
        maxInputs,
        texts,
      }),
    messageSession: (account, messageId) =>
      inboxStub(env, account.person).chatMessageSession(account.linkId, messageId),
  };
}

// What the Discord bot asks of the channel object beyond every platform's hooks: the form a "Fill in"
// button stands for, and the form's values sent to the card's session as the linked account — the
// same command the inbox page sends.

import { inboxStub } from "../session/inbox-report/inbox-rpc";
import { answerAsAccount, refusalWords } from "./answer-as-account";
import { modalCommandFor, modalFieldsOf } from "./card-choices";
import type { ChatAccount } from "./channel-directory";
import type { ChannelHooks } from "./channel-hooks";
import type { DiscordHooks } from "./discord-bot";
import { DISCORD_MODAL_INPUTS } from "./discord-form";

export function discordHooks(env: Env, base: ChannelHooks): DiscordHooks {
  const cardOf = (account: ChatAccount, ref: number) =>
    inboxStub(env, account.person).chatCard(ref, account.linkId);
  return {
    ...base,
    async modalOf(account, ref) {
      const card = await cardOf(account, ref);
      const inputs = card ? modalFieldsOf(card, DISCORD_MODAL_INPUTS) : null;
      return card && inputs ? { request: card.request, inputs } : null;
    },
    async submitModal(account, ref, texts) {
      const card = await cardOf(account, ref);
      if (!card) return "This button is not for a card of yours.";
      const command = modalCommandFor(card, DISCORD_MODAL_INPUTS, texts);
      if (!command) return "This card does not offer that choice.";
      const outcome = await answerAsAccount(env, account, card.sessionId, command);
      if (outcome.ok) return null;
      // The session names the field it refused ("age: must be a number"); the form can be sent again.
      return refusalWords(outcome.error) ?? `Not sent: ${outcome.error.message}`;
    },
  };
}

// What the Discord bot asks of the channel object beyond every platform's hooks: the form a "Fill in"
// button stands for, and the form's values sent to the card's session as the linked account — the
// same command the inbox page sends.

import type { InboxActor } from "../session/inbox-actions";
import { inboxStub } from "../session/inbox-report/inbox-rpc";
import { sessionStub } from "../session/session-rpc";
import { modalCommandFor, modalFieldsOf } from "./card-choices";
import { chatReceipt } from "./card-receipt";
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
      const actor: InboxActor = {
        kind: "chat",
        person: account.person,
        platform: account.platform,
        accountId: account.accountId,
        name: account.name,
      };
      const outcome = await sessionStub(env, card.sessionId).fromInbox(actor, { type: "command", command });
      if (outcome.ok) return null;
      const winner = outcome.error.resolution;
      if (outcome.error.code === "already_resolved" && winner)
        return `Already decided: ${chatReceipt(card.kind, winner)}.`;
      if (outcome.error.code === "unknown_session" || outcome.error.code === "forbidden")
        return "This card's session is gone or is no longer yours.";
      // The session names the field it refused ("age: must be a number"); the form can be sent again.
      return `Not sent: ${outcome.error.message}`;
    },
  };
}

// Discord's way to send a card's session a message, since its direct messages reach Parley only
// through the Gateway: a Message button on the card and on its receipt, the modal it opens (one
// paragraph), and the card message that modal names when it comes back.

import { MAX_MESSAGE_CHARS } from "../../protocol/limits";
import { inert } from "../../protocol/text/inert-text";
import { short } from "../fit-text";
import type { DiscordButton, DiscordMessage } from "./discord-message";

/**
 * The Message button's custom_id, the same on every card and receipt: the message it sits on names
 * the card, and Discord reports that message, signed, with the press (`message.id`).
 */
export const MESSAGE_BUTTON = "message";
/** The modal's custom_id is `message.<card message id>`: what it sends to is what the press named. */
const MODAL_PREFIX = `${MESSAGE_BUTTON}.`;
/** The custom_id of the modal's one text input. */
export const MESSAGE_INPUT = "message";
/**
 * Longest message the modal takes: the API's cap on a session message or Discord's on a text input
 * (4000), whichever is smaller — Discord's.
 */
export const MAX_MODAL_MESSAGE = Math.min(MAX_MESSAGE_CHARS, 4_000);

/** Discord's limits: a label's text, buttons per row, rows per message. */
const MAX_LABEL = 45;
const BUTTONS_PER_ROW = 5;
const MAX_ROWS = 5;

/** Discord's component types used in the modal (a Label holding a paragraph text input). */
const COMPONENT = { actionRow: 1, button: 2, textInput: 4, label: 18 } as const;
const PARAGRAPH = 2;

const messageButton: DiscordButton = {
  type: COMPONENT.button,
  style: 2,
  label: "Message",
  custom_id: MESSAGE_BUTTON,
};

/** The receipt's one row: its answers are gone, but the card's session can still be written to. */
export function messageButtonRow(): DiscordMessage["components"][number] {
  return { type: COMPONENT.actionRow, components: [{ ...messageButton }] };
}

/** `message` with the Message button last: in the last row when it has room, else in a row of its own. */
export function withMessageButton(message: DiscordMessage): DiscordMessage {
  const rows = message.components.map((row) => ({ ...row, components: [...row.components] }));
  const last = rows.at(-1);
  if (last && last.components.length < BUTTONS_PER_ROW) last.components.push({ ...messageButton });
  else if (rows.length < MAX_ROWS) rows.push(messageButtonRow());
  return { ...message, components: rows };
}

/** The modal asking for the message to the session titled `title` (as the inbox shows it). */
export function messageModal(messageId: string, title: string) {
  return {
    custom_id: `${MODAL_PREFIX}${messageId}`,
    title: "Message the session",
    components: [
      {
        type: COMPONENT.label,
        // The title may be the agent's words: shown inert, as every card's are.
        label: short(inert(`Message to ${title}`), MAX_LABEL),
        description: "The session hears it as your message, as if sent from your inbox.",
        component: {
          type: COMPONENT.textInput,
          custom_id: MESSAGE_INPUT,
          style: PARAGRAPH,
          required: true,
          max_length: MAX_MODAL_MESSAGE,
        },
      },
    ],
  };
}

/** The card message a submitted modal's custom_id names; null when it is not the Message modal. */
export function messageOfModal(customId: string | undefined): string | null {
  if (!customId?.startsWith(MODAL_PREFIX)) return null;
  const messageId = customId.slice(MODAL_PREFIX.length);
  return /^\d{1,20}$/.test(messageId) ? messageId : null;
}

// A card as a Bot API message, built here rather than by the Chat SDK's adapter, which reads a
// card's text as Markdown: the text is sent with no parse mode, and every part of the card's own
// words sits in a `code` or `pre` entity, inside which Telegram neither formats nor links anything.
import type { CardChild, CardElement } from "chat";

/** The adapter's callback data (`chat:{"a":<action>,"v":<value>}`), which its webhook decodes back. */
const CALLBACK_PREFIX = "chat:";
/** Telegram's limit on a button's callback data. */
const MAX_CALLBACK_BYTES = 64;

export interface TelegramEntity {
  type: "code" | "pre";
  offset: number;
  length: number;
}

export type TelegramButton = { text: string; callback_data: string } | { text: string; url: string };

export interface TelegramCardMessage {
  text: string;
  entities: TelegramEntity[];
  reply_markup: { inline_keyboard: TelegramButton[][] };
  /** No preview: a link's preview would be fetched, and a card's text holds only inert words anyway. */
  link_preview_options: { is_disabled: true };
}

/** The button's data as the adapter encodes it; refused when Telegram would refuse it. */
export function callbackData(action: string, value: string | undefined): string {
  const data = `${CALLBACK_PREFIX}${JSON.stringify(value === undefined ? { a: action } : { a: action, v: value })}`;
  if (new TextEncoder().encode(data).byteLength > MAX_CALLBACK_BYTES)
    throw new Error(`callback data over ${MAX_CALLBACK_BYTES} bytes: ${data}`);
  return data;
}

/** The card's text with one entity per part (its title, then each text), and its buttons. */
export function telegramCard(card: CardElement): TelegramCardMessage {
  let text = "";
  const entities: TelegramEntity[] = [];
  const add = (content: string) => {
    if (!content) return;
    if (text) text += "\n\n";
    // Offsets count UTF-16 code units, as JavaScript strings do. An entity of blanks only is refused.
    if (content.trim()) {
      const type = content.includes("\n") ? "pre" : "code";
      entities.push({ type, offset: text.length, length: content.length });
    }
    text += content;
  };
  if (card.title) add(card.title);
  const rows: TelegramButton[][] = [];
  const walk = (children: CardChild[]) => {
    for (const child of children) {
      if (child.type === "text") add(child.content);
      else if (child.type === "section") walk(child.children);
      else if (child.type === "actions") {
        const row: TelegramButton[] = [];
        for (const action of child.children) {
          if (action.type === "button")
            row.push({ text: action.label, callback_data: callbackData(action.id, action.value) });
          else if (action.type === "link-button") row.push({ text: action.label, url: action.url });
        }
        if (row.length > 0) rows.push(row);
      }
    }
  };
  walk(card.children);
  return {
    text,
    entities,
    reply_markup: { inline_keyboard: rows },
    link_preview_options: { is_disabled: true },
  };
}

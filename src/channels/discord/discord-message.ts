// A card as a Discord message: the shared Chat SDK card (src/channels/card-message.ts) rendered to
// Discord's message components by hand — every part of the card's words in code, where Discord
// formats, links and mentions nothing; each button a component whose custom_id is the button's
// `<ref>.<code>` (ids only), links as link buttons.
import type { ButtonElement, CardChild, CardElement } from "chat";
import { headAndTail } from "../../protocol/text/head-and-tail";
import { SEE_ALL } from "../card-message";
import { short } from "../fit-text";

/** Discord's limits: message content, buttons per row, rows per message, label and custom_id lengths. */
const MAX_CONTENT = 2000;
const BUTTONS_PER_ROW = 5;
const MAX_ROWS = 5;
const MAX_LABEL = 80;
const MAX_CUSTOM_ID = 100;

/** Discord's component types and button styles used here. */
const ACTION_ROW = 1;
const BUTTON = 2;
const STYLE = { primary: 1, secondary: 2, danger: 4, link: 5 } as const;

export type DiscordButton =
  | { type: typeof BUTTON; style: 1 | 2 | 4; label: string; custom_id: string }
  | { type: typeof BUTTON; style: typeof STYLE.link; label: string; url: string };

export interface DiscordMessage {
  content: string;
  components: { type: typeof ACTION_ROW; components: DiscordButton[] }[];
  /** Nobody is pinged, whatever the agent's text says (`@everyone`, `<@id>`). */
  allowed_mentions: { parse: [] };
}

/**
 * Backticks kept apart by a zero-width space, so no run of them closes the code (Discord has no
 * escape inside one). The only invisible character in a card is this one, and it was put there by
 * Parley: the agent's own were spelled out before (src/protocol/text/inert-text.ts).
 */
function unfenced(text: string): string {
  return text.replace(/`(?=`)/g, "`\u200b");
}

/** A code block that the text inside cannot close. */
function block(text: string): string {
  return `\`\`\`\n${unfenced(text)}\n\`\`\``;
}

/** One line of code, bold (a title); a text with a backtick or a line break is a block instead. */
function boldCode(text: string): string {
  return /[`\n]/.test(text) ? block(text) : `**\`${text}\`**`;
}

/** Parley's `heading` in bold and `text` in a code block, with no buttons (a rung's "Still waiting"). */
export function discordNotice(heading: string, text: string): DiscordMessage {
  return {
    content: `**${heading}**\n${block(text.slice(0, MAX_CONTENT - heading.length - 16))}`,
    components: [],
    allowed_mentions: { parse: [] },
  };
}

/** How many characters `text` takes in Discord's code blocks (its broken fences). */
export function discordCost(text: string): number {
  return unfenced(text).length;
}

function button(element: ButtonElement): DiscordButton | null {
  const customId = element.value ?? element.id;
  if (customId.length > MAX_CUSTOM_ID) return null;
  const style = element.style === "primary" ? 1 : element.style === "danger" ? 4 : 2;
  return { type: BUTTON, style, label: short(element.label, MAX_LABEL), custom_id: customId };
}

/** The message a card is posted as: its title, then each text, all of them literal. */
export function discordMessage(card: CardElement): DiscordMessage {
  const lines: string[] = card.title ? [boldCode(card.title)] : [];
  const buttons: DiscordButton[] = [];
  const walk = (children: CardChild[]) => {
    for (const child of children) {
      if (child.type === "actions") {
        for (const action of child.children) {
          if (action.type === "button") {
            const rendered = button(action);
            if (rendered) buttons.push(rendered);
          } else if (action.type === "link-button") {
            buttons.push({
              type: BUTTON,
              style: STYLE.link,
              label: short(action.label, MAX_LABEL),
              url: action.url,
            });
          }
        }
      } else if (child.type === "section") {
        walk(child.children);
      } else if (child.type === "text" && child.content.trim()) {
        // Any of it may be the agent's (the tool's name, its claim, its input, a question's options).
        lines.push(block(child.content));
      }
    }
  };
  walk(card.children);
  const rows: DiscordMessage["components"] = [];
  for (let i = 0; i < buttons.length && rows.length < MAX_ROWS; i += BUTTONS_PER_ROW) {
    rows.push({ type: ACTION_ROW, components: buttons.slice(i, i + BUTTONS_PER_ROW) });
  }
  const content = lines.join("\n");
  if (content.length <= MAX_CONTENT) return { content, components: rows, allowed_mentions: { parse: [] } };
  // Never reached by a card, which is measured to fit (card-message.ts): were it, a message that
  // cannot show all of it answers nothing, and keeps only its links and See all.
  const seeOnly = rows
    .map((row) => ({
      ...row,
      components: row.components.filter((b) => b.style === STYLE.link || b.custom_id.endsWith(`.${SEE_ALL}`)),
    }))
    .filter((row) => row.components.length > 0);
  return { content: headAndTail(content, MAX_CONTENT), components: seeOnly, allowed_mentions: { parse: [] } };
}

// A card as a Discord message: the shared Chat SDK card (src/channels/card-message.ts) rendered to
// Discord's message components by hand — text as the message's content, each button a component
// whose custom_id is the button's `<ref>.<code>` (ids only), links as link buttons.
import { type ButtonElement, type CardChild, type CardElement, cardChildToFallbackText } from "chat";
import { short } from "./fit-text";

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

/** A code block that the text inside cannot close. */
function block(text: string): string {
  return `\`\`\`\n${text.replaceAll("```", "`\u200b``")}\n\`\`\``;
}

function button(element: ButtonElement): DiscordButton | null {
  const customId = element.value ?? element.id;
  if (customId.length > MAX_CUSTOM_ID) return null;
  const style = element.style === "primary" ? 1 : element.style === "danger" ? 4 : 2;
  return { type: BUTTON, style, label: short(element.label, MAX_LABEL), custom_id: customId };
}

/** The message a card is posted as; its first text is the summary line, the rest the request. */
export function discordMessage(card: CardElement, leading: DiscordButton[] = []): DiscordMessage {
  const lines: string[] = card.title ? [`**${card.title}**`] : [];
  const buttons: DiscordButton[] = [...leading];
  const walk = (children: CardChild[], textIndex: { n: number }) => {
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
        walk(child.children, textIndex);
      } else if (child.type === "text") {
        // The summary line reads as prose; what the agent sent (tool input, plan) is shown verbatim.
        lines.push(textIndex.n === 0 ? child.content : block(child.content));
        textIndex.n += 1;
      } else {
        const text = cardChildToFallbackText(child);
        if (text) lines.push(text);
      }
    }
  };
  walk(card.children, { n: 0 });
  const rows: DiscordMessage["components"] = [];
  for (let i = 0; i < buttons.length && rows.length < MAX_ROWS; i += BUTTONS_PER_ROW) {
    rows.push({ type: ACTION_ROW, components: buttons.slice(i, i + BUTTONS_PER_ROW) });
  }
  return { content: short(lines.join("\n"), MAX_CONTENT), components: rows, allowed_mentions: { parse: [] } };
}

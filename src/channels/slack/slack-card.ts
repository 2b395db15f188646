// A card as Block Kit, built here rather than by the Chat SDK's adapter, which passes a card's text
// to Slack as mrkdwn: the title is a plain-text header, every other part of the card's words a code
// block with `& < >` escaped and `verbatim` set, so Slack formats, links and mentions nothing in it.
import type { ButtonElement, CardChild, CardElement, LinkButtonElement } from "chat";

/** Slack's longest section text; a longer text is shown in several code blocks, in order. */
const MAX_SECTION_CHARS = 3_000;
const FENCE = "```";

type PlainText = { type: "plain_text"; text: string; emoji: false };
export type SlackBlock =
  | { type: "header"; text: PlainText }
  | { type: "section"; text: { type: "mrkdwn"; text: string; verbatim: true } }
  | { type: "actions"; elements: SlackButton[] };
export type SlackButton = {
  type: "button";
  text: PlainText;
  action_id: string;
  value?: string;
  url?: string;
  style?: "primary" | "danger";
};

export interface SlackCardMessage {
  /** What a notification of the message says: the title, escaped like the blocks. */
  text: string;
  blocks: SlackBlock[];
}

/** The three characters Slack reads as markup in any mrkdwn text, as its escapes. */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * Backticks kept apart by a zero-width space, so no run of them closes the code block (Slack has no
 * escape inside one). The only invisible character in a card is this one, and it was put there by
 * Parley: the agent's own were spelled out before (src/protocol/text/inert-text.ts).
 */
export function unfenced(text: string): string {
  return text.replace(/`(?=`)/g, "`\u200b");
}

/** `text` as one code block or more, each within Slack's section limit, splitting no escape. */
export function codeSections(text: string): string[] {
  const room = MAX_SECTION_CHARS - 2 * (FENCE.length + 1);
  const sections: string[] = [];
  let current = "";
  for (const char of unfenced(text)) {
    const shown = escapeMrkdwn(char);
    if (current.length + shown.length > room) {
      sections.push(current);
      current = "";
    }
    current += shown;
  }
  sections.push(current);
  return sections.map((section) => `${FENCE}\n${section}\n${FENCE}`);
}

/** How many characters `text` takes in Slack's code blocks (its escapes and broken fences). */
export function slackCost(text: string): number {
  return escapeMrkdwn(unfenced(text)).length;
}

function plain(text: string): PlainText {
  return { type: "plain_text", text, emoji: false };
}

function button(element: ButtonElement | LinkButtonElement): SlackButton {
  if (element.type === "link-button")
    return {
      type: "button",
      text: plain(element.label),
      action_id: `link-${element.url.slice(0, 200)}`,
      url: element.url,
    };
  return {
    type: "button",
    text: plain(element.label),
    action_id: element.id,
    ...(element.value ? { value: element.value } : {}),
    ...(element.style === "primary" || element.style === "danger" ? { style: element.style } : {}),
  };
}

export function slackCard(card: CardElement): SlackCardMessage {
  const blocks: SlackBlock[] = [];
  if (card.title) blocks.push({ type: "header", text: plain(card.title) });
  const walk = (children: CardChild[]) => {
    for (const child of children) {
      if (child.type === "text") {
        if (!child.content.trim()) continue;
        for (const text of codeSections(child.content))
          blocks.push({ type: "section", text: { type: "mrkdwn", text, verbatim: true } });
      } else if (child.type === "section") walk(child.children);
      else if (child.type === "actions") {
        const elements = child.children.flatMap((action) =>
          action.type === "button" || action.type === "link-button" ? [button(action)] : [],
        );
        if (elements.length > 0) blocks.push({ type: "actions", elements });
      }
    }
  };
  walk(card.children);
  return { text: escapeMrkdwn(card.title ?? "A card from Parley"), blocks };
}

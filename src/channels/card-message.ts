// A card as a Chat SDK card: the kind's own words made inert (src/protocol/text/inert-text.ts), the choices
// as buttons whose data is `<ref>.<code>` (ids only, never the card's content), and a link to the
// inbox. A card too long for a message is shown head and tail and answered only in Parley.
import { Actions, Button, Card, type CardElement, CardText, LinkButton } from "chat";
import { approvalsText } from "../protocol/cards/approval-words";
import { headAndTail } from "../protocol/text/head-and-tail";
import { inert } from "../protocol/text/inert-text";
import { sessionKinds } from "../session/session-kinds";
import { choicesOf, detailOf, linkOf } from "./card-choices";
import { changeLineOf } from "./change-line";
import type { ChatCardMessage } from "./chat-sender";
import { short } from "./fit-text";

/** The one action id every card button uses; the value says which message and which choice. */
export const CHOICE_ACTION = "c";
/** The code of "See all": its press mints a fresh single-use link (src/channels/see-all-codes.ts). */
export const SEE_ALL = "sa";
/**
 * Most characters of a card's own words (title, line and request together) a message shows, as the
 * platform counts them once shown literally: what every platform's message holds whole with room
 * to spare (Discord's is the smallest, 2000).
 */
export const MAX_SHOWN_CHARS = 1_300;
/** Most characters of a title (Slack's header holds 150) and of the summary line. */
const MAX_TITLE_CHARS = 120;
const MAX_LINE_CHARS = 300;
/** Longest button label every platform takes (Slack's is 75, Discord's 80), once made inert. */
const MAX_LABEL_CHARS = 60;

export interface CardMessageOptions {
  /** Buttons only some platforms offer (a form's "Fill in" where a modal holds it), carried like every choice. */
  extra?: readonly { code: string; label: string; style?: "primary" | "danger" }[];
  /** How many characters `text` takes once the platform shows it literally (escapes, broken fences). */
  cost?: (text: string) => number;
}

/** `<ref>.<code>` back into its parts; null when it is not one. */
export function readChoiceValue(value: string | undefined): { ref: number; code: string } | null {
  const match = /^(\d{1,15})\.([a-z0-9]{1,8})$/.exec(value ?? "");
  if (!match) return null;
  return { ref: Number(match[1]), code: match[2] as string };
}

/** The card's words as a message shows them, and whether that is all of them. */
export function shownWords(
  message: Pick<ChatCardMessage, "card" | "progress">,
  cost: (text: string) => number = (text) => text.length,
): { title: string; line: string; detail: string | null; whole: boolean } {
  const { card, progress } = message;
  const summary = sessionKinds.summary(card.kind, card.toolName, card.request);
  const title = inert(summary.title);
  const line = inert(summary.line);
  const rawDetail = detailOf(card, progress ?? null);
  const detail = rawDetail === null ? null : inert(rawDetail);
  const total = cost(title) + cost(line) + (detail === null ? 0 : cost(detail));
  if (cost(title) <= MAX_TITLE_CHARS && total <= MAX_SHOWN_CHARS) return { title, line, detail, whole: true };
  const shortTitle = fitShown(title, MAX_TITLE_CHARS, cost);
  const shortLine = fitShown(line, MAX_LINE_CHARS, cost);
  const room = MAX_SHOWN_CHARS - cost(shortTitle) - cost(shortLine);
  return {
    title: shortTitle,
    line: shortLine,
    detail: detail === null ? null : fitShown(detail, room, cost),
    whole: false,
  };
}

/** `text` shortened head and tail until the platform counts at most `max` characters of it. */
function fitShown(text: string, max: number, cost: (text: string) => number): string {
  let budget = max;
  let shown = headAndTail(text, budget);
  while (cost(shown) > max && budget > 0) {
    budget -= Math.max(1, cost(shown) - max);
    shown = headAndTail(text, Math.max(0, budget));
  }
  return shown;
}

/**
 * The card as a message. One shown whole offers its choices; one that had to be shortened offers
 * only "See all" (and no link the request names): approving takes seeing it in full.
 */
export function cardMessage(message: ChatCardMessage, options: CardMessageOptions = {}): CardElement {
  const { card, ref, openUrl, progress } = message;
  const { title, line, detail, whole } = shownWords(message, options.cost);
  const children = [CardText(line)];
  // A file change says how big it is; its button opens the card, where the diff is drawn whole.
  const change = changeLineOf(card);
  if (change) children.push(CardText(change.text));
  if (detail) children.push(CardText(detail));
  // A call that needs several people says how far it got, on every device ("1 of 2 approvals · Ana").
  if (card.approvals) {
    const by = card.approvals.by.length > 0 ? ` · ${card.approvals.by.join(", ")}` : "";
    children.push(CardText(inert(`${approvalsText(card.approvals)}${by}`), { style: "muted" }));
  }
  // A shortened request is seen whole through a link minted at the press, never one stored here.
  if (!whole) {
    const seeAll = Button({
      id: CHOICE_ACTION,
      label: change?.label ?? "See all",
      value: `${ref}.${SEE_ALL}`,
    });
    return Card({ title, children: [...children, Actions([seeAll])] });
  }
  const choices = [...choicesOf(card, progress ?? null), ...(options.extra ?? [])];
  const buttons = choices.map((choice: { code: string; label: string; style?: "primary" | "danger" }) =>
    Button({
      id: CHOICE_ACTION,
      label: short(inert(choice.label), MAX_LABEL_CHARS),
      value: `${ref}.${choice.code}`,
      ...(choice.style ? { style: choice.style } : {}),
    }),
  );
  const open = LinkButton({ url: openUrl, label: "Open in Parley" });
  const page = linkOf(card);
  const links = page ? [LinkButton({ url: page.url, label: page.label })] : [];
  const seeChange = change
    ? [Button({ id: CHOICE_ACTION, label: change.label, value: `${ref}.${SEE_ALL}` })]
    : [];
  return Card({ title, children: [...children, Actions([...links, ...seeChange, ...buttons, open])] });
}

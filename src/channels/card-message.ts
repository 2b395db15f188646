// A card as a Chat SDK card: the kind's own words, the request shortened, the choices as buttons
// whose data is `<ref>.<code>` (ids only, never the card's content), and a link to the inbox.
import { Actions, Button, Card, type CardElement, CardText, LinkButton } from "chat";
import { approvalsText } from "../protocol/approval-words";
import { sessionKinds } from "../session/session-kinds";
import { choicesOf, detailOf, linkOf } from "./card-choices";
import type { ChatCardMessage } from "./chat-sender";

/** The one action id every card button uses; the value says which message and which choice. */
export const CHOICE_ACTION = "c";
/** The code of "See all": its press mints a fresh single-use link (src/channels/see-all-codes.ts). */
export const SEE_ALL = "sa";
/** Most characters of a request shown in a message; the rest is behind "See all". */
const MAX_DETAIL_CHARS = 600;

/** `<ref>.<code>` back into its parts; null when it is not one. */
export function readChoiceValue(value: string | undefined): { ref: number; code: string } | null {
  const match = /^(\d{1,15})\.([a-z0-9]{1,8})$/.exec(value ?? "");
  if (!match) return null;
  return { ref: Number(match[1]), code: match[2] as string };
}

/**
 * The card as a message; `extra` are buttons only some platforms offer (a form's "Fill in" where a
 * modal holds it), carried like every choice as `<ref>.<code>`.
 */
export function cardMessage(
  { card, ref, openUrl, progress }: ChatCardMessage,
  extra: readonly { code: string; label: string }[] = [],
): CardElement {
  const { title, line } = sessionKinds.summary(card.kind, card.toolName, card.request);
  const detail = detailOf(card, progress ?? null);
  const shortened = detail !== null && detail.length > MAX_DETAIL_CHARS;
  const children = [CardText(line)];
  if (detail) children.push(CardText(shortened ? `${detail.slice(0, MAX_DETAIL_CHARS - 1)}…` : detail));
  // A call that needs several people says how far it got, on every device ("1 of 2 approvals · Ana").
  if (card.approvals) {
    const by = card.approvals.by.length > 0 ? ` · ${card.approvals.by.join(", ")}` : "";
    children.push(CardText(`${approvalsText(card.approvals)}${by}`));
  }
  const choices = choicesOf(card, progress ?? null);
  const buttons = [...choices, ...extra].map(
    (choice: { code: string; label: string; style?: "primary" | "danger" }) =>
      Button({
        id: CHOICE_ACTION,
        label: choice.label,
        value: `${ref}.${choice.code}`,
        ...(choice.style ? { style: choice.style } : {}),
      }),
  );
  // A shortened request is seen whole through a link minted at the press, never one stored here.
  const open = shortened
    ? Button({ id: CHOICE_ACTION, label: "See all", value: `${ref}.${SEE_ALL}` })
    : LinkButton({ url: openUrl, label: "Open in Parley" });
  const page = linkOf(card);
  const links = page ? [LinkButton({ url: page.url, label: page.label }), open] : [open];
  return Card({ title, children: [...children, Actions([...links.slice(0, -1), ...buttons, open])] });
}

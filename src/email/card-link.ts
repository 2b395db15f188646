// The link in a card's email: a signed answer token for that one card (the one a notification's
// Approve and Deny carry), spent once by the card's session, until the card's deadline. Opening the
// link (a GET, as mail scanners do) only shows the card; an answer is a POST (src/router/reach/email-routes.ts).
import { signPushAnswerToken } from "../tokens/push-answer-token";
import type { CardLinkClaims } from "./email-outbox";

/** Where a card's email link points, under the deployment's origin. */
export const CARD_LINK_PATH = "/api/email/cards/";

/** `text` with the card's link, signed now, and what opening it does. */
export async function writeCardLink(secret: string, text: string, link: CardLinkClaims): Promise<string> {
  const token = await signPushAnswerToken(secret, {
    sessionId: link.sessionId,
    interactionId: link.interactionId,
    person: link.person,
    decisions: ["approve", "deny"],
    expiresAt: link.expiresAt,
    // The email's one answer: the link spends the token a reply would (src/email/email-answers.ts).
    ...(link.replyToken ? { nonce: link.replyToken } : {}),
  });
  return [
    text,
    "",
    `Open the card: ${link.origin}${CARD_LINK_PATH}${token}`,
    "",
    "Opening the link answers nothing: it shows the card. Its Approve or Deny works once, until the card's deadline.",
    ...(link.replyToken
      ? ["Or reply to this email with approve or deny as its first line (once, from this address)."]
      : []),
  ].join("\n");
}

// The Worker's Email Routing handler: a reply to a card's email answers it. Accepted only at the
// card's reply address (`local+<token>@domain`), from the address the email went to (envelope and
// From alike), with "approve" or "deny" as the reply's first line that is not quoted; any other
// message is refused with the reason, and nothing changes.
import { logSecurityEvent } from "../log/security-log";
import type { PushDecision } from "../tokens/push-answer-token";
import { answerByEmail } from "./email-answer";
import { readReply } from "./reply-text";
import { tokenOfReplyAddress } from "./reply-token";

/** A reply is a line of text; anything far larger is no reply to a card. */
const MAX_REPLY_BYTES = 256 * 1024;

/**
 * The decision a reply's text states: its first line that is neither blank nor quoted (`>`), which
 * must be "approve" or "deny" and nothing else (any case); null otherwise.
 */
export function replyDecision(text: string | null | undefined): PushDecision | null {
  const first = (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line.length > 0 && !line.startsWith(">"));
  const word = first?.toLowerCase();
  return word === "approve" || word === "deny" ? word : null;
}

/** Answers the card a reply names, or refuses the message with why (`setReject`). */
export async function receiveReply(message: ForwardableEmailMessage, env: Env): Promise<void> {
  const refuse = (reason: string) => {
    logSecurityEvent("credential_refused", { reason: "email_reply" });
    message.setReject(reason);
  };
  const token = tokenOfReplyAddress(message.to);
  if (!token) return refuse("This address takes only replies to a card's email, at its own reply address");
  if (message.rawSize > MAX_REPLY_BYTES)
    return refuse("A reply to a card is one line: this message is too large");
  const parsed = readReply(new Uint8Array(await new Response(message.raw).arrayBuffer()));
  const sender = message.from.trim().toLowerCase();
  if (parsed.from !== sender) {
    return refuse(
      "The message's From is not its sender: a reply answers only from the address the card went to",
    );
  }
  const decision = replyDecision(parsed.text);
  if (!decision) return refuse('The reply\'s first line must be "approve" or "deny" and nothing else');
  const outcome = await answerByEmail(env, token, sender, decision);
  if (!outcome.ok) return refuse(outcome.error.message);
}

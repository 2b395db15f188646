// A card's command sent to its session by a linked chat account, the same command the inbox page
// sends: the account is a device of its person, so the session checks the person, first answer
// wins, and the resolution records "Ana · Telegram". Shared by every press, reply and modal.
import type { Outcome } from "../objects/outcome";
import type { SessionCommand } from "../protocol/commands";
import type { ErrorBody } from "../protocol/errors";
import type { InboxActor } from "../session/inbox-actions";
import { sessionStub } from "../session/session-rpc";
import { chatReceipt } from "./card-receipt";
import type { ChatAccount } from "./channel-directory";

export function answerAsAccount(
  env: Env,
  account: ChatAccount,
  sessionId: string,
  command: SessionCommand,
): Promise<Outcome> {
  const actor: InboxActor = {
    kind: "chat",
    person: account.person,
    platform: account.platform,
    accountId: account.accountId,
    name: account.name,
  };
  return sessionStub(env, sessionId).fromInbox(actor, { type: "command", command });
}

/** What to tell the account the session refused: the winner's receipt, a lost session; else null. */
export function refusalWords(error: ErrorBody): string | null {
  const winner = error.resolution;
  if (error.code === "already_resolved" && winner)
    return `Already decided: ${chatReceipt(winner.kind, winner)}.`;
  if (error.code === "unknown_session" || error.code === "forbidden")
    return "This card's session is gone or is no longer yours.";
  return null;
}

// Chat accounts the person's invited approvers linked from their answering page: each answers as its
// approver, never as the person. Such an account gets no card when it opens; a rung of a card's
// ladder to "approvers" with `chat` sends it the card's message, if the approver is still there and
// their scope covers the card; the message offers only what an approver may do (no grant, no more time).
import { loadedParser } from "../grants/shell-reader";
import { inScope } from "../people/approver-scope";
import type { InboxCard } from "../protocol/inbox/inbox";
import type { ChatPlatform } from "../protocol/reach/channels";
import type { SqlCounter } from "../storage/sql-counter";
import type { PeopleStore } from "./people-store";

/** A linked account as the inbox keeps it: whose it is (`approver_id` null: the person's own). */
export type ChatAccountRow = {
  link_id: string;
  platform: ChatPlatform;
  thread_id: string;
  approver_id: string | null;
};

/**
 * The card as an approver's message shows it: no "Allow…" (its grant offer taken out) and no
 * "More time" (its deadline policy). The session refuses both to an approver anyway.
 */
export function approverCard(card: InboxCard): InboxCard {
  const { deadlinePolicy: _policy, ...rest } = card;
  const request = card.request as Record<string, unknown> | null;
  return typeof request === "object" && request !== null && "grantOffer" in request
    ? { ...rest, request: { ...request, grantOffer: null } }
    : rest;
}

/**
 * The approvers' accounts a rung of `card` reaches: the approver is live and their scope covers the
 * card, which is still open here. A Bash rule scope is read with the shell parser; before it is
 * loaded, such an approver is not reached rather than reached by a reading that could not be made.
 */
export function approverAccountsReached(
  sql: SqlCounter,
  people: PeopleStore,
  accounts: readonly ChatAccountRow[],
  card: InboxCard,
): ChatAccountRow[] {
  const open = sql.one<{ agent: string }>(
    `SELECT s.agent FROM cards c JOIN sessions s ON s.session_id = c.session_id
     WHERE c.session_id = ? AND c.interaction_id = ?`,
    card.sessionId,
    card.interactionId,
  );
  if (!open) return [];
  return accounts.filter((account) => {
    const approver = account.approver_id === null ? null : people.live(account.approver_id);
    if (!approver) return false;
    if (approver.scope.scope === "rule" && card.toolName === "Bash" && !loadedParser()) return false;
    return inScope(approver.scope, { ...card, agent: open.agent });
  });
}

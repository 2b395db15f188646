// A rung of a card's escalation ladder in chat: each of the person's linked accounts is sent a short
// plain-text "Still waiting: <summary>" through a delivery row of its own (change `reminder`), sent
// once the step that stored it is done, with the same lease and retries (the inbox's alarm) as the
// card's message, so it survives restarts.

import type { InboxCard } from "../protocol/inbox/inbox";
import type { ChatPlatform } from "../protocol/reach/channels";
import { sessionKinds } from "../session/session-kinds";
import type { SqlCounter } from "../storage/sql-counter";

/** What a reminder row carries: Parley's heading and the card's summary (sent as plain text). */
export interface ChatReminderPayload {
  rung: number;
  heading: string;
  text: string;
}

export const REMINDER_HEADING = "Still waiting";
const MAX_TEXT = 300;

type Account = { link_id: string; platform: ChatPlatform; thread_id: string };

/**
 * Stores a reminder of `card` for each account; a later rung sends the account's one reminder row
 * again (at most one row per card and account). True when any row is due.
 */
export function enqueueReminders(
  sql: SqlCounter,
  now: number,
  accounts: readonly Account[],
  card: InboxCard,
  rung: number,
): boolean {
  const { title, line } = sessionKinds.summary(card.kind, card.toolName, card.request);
  const named = line && line !== title ? `${title} — ${line}` : title;
  const payload: ChatReminderPayload = {
    rung,
    heading: REMINDER_HEADING,
    // A reminder names the card; the card's own message shows it whole.
    text: named.length > MAX_TEXT ? `${named.slice(0, MAX_TEXT - 1)}…` : named,
  };
  let enqueued = false;
  for (const account of accounts) {
    const written = sql.run(
      ["chat_deliveries"],
      `INSERT INTO chat_deliveries (platform, link_id, thread_id, session_id, interaction_id, change, payload, status,
         attempts, next_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'reminder', ?, 'pending', 0, ?, ?, ?)
       ON CONFLICT (link_id, session_id, interaction_id, change) DO UPDATE SET payload = excluded.payload,
         status = 'pending', attempts = 0, next_at = excluded.next_at, last_error = NULL,
         updated_at = excluded.updated_at`,
      account.platform,
      account.link_id,
      account.thread_id,
      card.sessionId,
      card.interactionId,
      JSON.stringify(payload),
      now,
      now,
      now,
    );
    enqueued = written > 0 || enqueued;
  }
  return enqueued;
}

/** The card resolved: a reminder not yet sent has nothing left to remind of. */
export function dropReminders(sql: SqlCounter, sessionId: string, interactionId: string): void {
  sql.run(
    ["chat_deliveries"],
    `UPDATE chat_deliveries SET status = 'failed', last_error = 'resolved before sending', next_at = NULL
     WHERE session_id = ? AND interaction_id = ? AND change = 'reminder' AND status = 'pending'`,
    sessionId,
    interactionId,
  );
}

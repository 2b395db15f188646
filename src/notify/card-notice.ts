// Words for a card that opened or resolved, shared by pushes and webhooks: a title, one line of
// body with the time left, and the link that opens the session at that card. The kind words the
// card itself (its `summary`); this file adds the time, the outcome and the link. The kind's words
// may be the agent's: they are made inert, and a long one keeps its head and tail.

import type { KindSummary } from "../interactions/define-interaction";
import { describeDuration } from "../interactions/describe-duration";
import { namesSomeone } from "../protocol/access/people";
import type { CardNotice } from "../protocol/reach/notify";
import { OUTCOME_WORDS } from "../protocol/session/outcome-words";
import type { InteractionOutcome } from "../protocol/session/session";
import { headAndTail } from "../protocol/text/head-and-tail";
import { inert } from "../protocol/text/inert-text";
import type { InteractionPromptData } from "../protocol/wire/events";

const MAX_BODY_CHARS = 240;
const MAX_TITLE_CHARS = 120;

export interface NoticeContext {
  sessionId: string;
  seq: number;
  /** The session's page, with no token; the card id is appended so the page can scroll to it. */
  sessionUrl: string;
  now: number;
}

/** The notice for a card that just opened. */
export function openedNotice(
  card: InteractionPromptData,
  { title, line }: KindSummary,
  context: NoticeContext,
): CardNotice {
  const left = describeDuration(roundedLeft(card.expiresAt - context.now));
  return {
    change: "opened",
    sessionId: context.sessionId,
    seq: context.seq,
    card: { ...pick(card), outcome: null, resolvedBy: null },
    deadline: card.expiresAt,
    title: clip(title, MAX_TITLE_CHARS),
    body: clip(line, MAX_BODY_CHARS, ` — ${left} left to answer`),
    url: cardUrl(context.sessionUrl, card.interactionId ?? card.toolCallId),
  };
}

/** The reminder that a card is still open, sent at its deadline policy's offsets before the deadline. */
export function reminderNotice(
  card: InteractionPromptData,
  { title, line }: KindSummary,
  context: NoticeContext,
): CardNotice {
  const left = describeDuration(roundedLeft(card.expiresAt - context.now));
  return {
    ...openedNotice(card, { title, line }, context),
    change: "reminder",
    title: `Still waiting: ${clip(title, MAX_TITLE_CHARS)}`,
    body: clip(line, MAX_BODY_CHARS, ` — ${left} left to answer`),
  };
}

/** The notice for a card that was answered, timed out or was cancelled. */
export function resolvedNotice(
  card: Omit<InteractionPromptData, "createdAt"> & {
    outcome: InteractionOutcome;
    resolvedBy: string | null;
    answeredBy?: string | null | undefined;
    /** The kind's words for how it ended (InteractionResolution.receipt). */
    receipt?: string | undefined;
  },
  { line }: KindSummary,
  context: NoticeContext,
): CardNotice {
  // One person's deployment names the device, as the page's receipts do.
  const by = namesSomeone(card.answeredBy)
    ? ` by ${card.answeredBy}`
    : card.resolvedBy
      ? ` on ${card.resolvedBy}`
      : "";
  return {
    change: "resolved",
    sessionId: context.sessionId,
    seq: context.seq,
    card: {
      ...pick(card),
      outcome: card.outcome,
      resolvedBy: card.resolvedBy,
      ...(card.answeredBy ? { answeredBy: card.answeredBy } : {}),
    },
    deadline: card.expiresAt,
    title: clip(`${card.receipt ?? OUTCOME_WORDS[card.outcome]}${by}`, MAX_TITLE_CHARS),
    body: clip(line, MAX_BODY_CHARS),
    url: cardUrl(context.sessionUrl, card.interactionId ?? card.toolCallId),
  };
}

// The notice is written a few milliseconds after the card: say "10 minutes", not "9 minutes and 59.998 seconds".
function roundedLeft(ms: number): number {
  const unit = ms >= 60_000 ? 60_000 : 1_000;
  return Math.max(0, Math.round(ms / unit) * unit);
}

function pick(card: {
  interactionId?: string | undefined;
  toolCallId: string;
  kind: string;
  toolName: string;
  request: unknown;
}) {
  return {
    // Events stored before interactions had ids of their own name only the tool call.
    interactionId: card.interactionId ?? card.toolCallId,
    toolCallId: card.toolCallId,
    kind: card.kind,
    toolName: card.toolName,
    request: card.request,
  };
}

export function cardUrl(sessionUrl: string, interactionId: string): string {
  return `${sessionUrl}${sessionUrl.includes("?") ? "&" : "?"}card=${encodeURIComponent(interactionId)}`;
}

/** `text` made inert and, with Parley's own `suffix`, at most `max` characters: head and tail kept. */
function clip(text: string, max: number, suffix = ""): string {
  return `${headAndTail(inert(text), max - suffix.length)}${suffix}`;
}

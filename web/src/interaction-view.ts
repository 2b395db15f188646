// Pure wording and arithmetic for every interaction card: receipts, countdowns and the pending
// queue, kept apart from the DOM so they are unit-tested. What one kind shows lives in its own view
// module (src/interactions/kinds/*-view.ts).
import type { InteractionResolution } from "../../src/protocol/index";
import { MAIN_FRAME_ID } from "../../src/protocol/session/main-frame";
import { OUTCOME_WORDS } from "../../src/protocol/session/outcome-words";
import { answeredWhere } from "./answered-where";
import { type InteractionState, openInteraction, type SessionView, type ToolItem } from "./session-state";

/** What a receipt reads from a resolution. */
type Resolution = Pick<
  InteractionResolution,
  "outcome" | "resolvedBy" | "answeredBy" | "resolvedAt" | "batch" | "receipt"
> &
  Partial<Pick<InteractionResolution, "withdrawn">>;

/**
 * Milliseconds left on the server's clock, given the skew measured at hello. The skew is measured
 * as the hello's server time minus its arrival, so it is off by that frame's trip; a card that has
 * just opened could then show more than it was given ("2:01" on a two-minute card). The server's
 * clock was at least `createdAt` when the card opened, so no more than `expiresAt - createdAt` can
 * be left.
 */
export function remainingMs(
  interaction: Pick<InteractionState, "createdAt" | "expiresAt">,
  clockSkewMs: number,
  localNow: number,
): number {
  const left = interaction.expiresAt - (localNow + clockSkewMs);
  return Math.min(Math.max(0, left), interaction.expiresAt - interaction.createdAt);
}

export type Urgency = "calm" | "soon" | "urgent" | "expired";

/** Amber under a minute, red under fifteen seconds. */
export function urgencyOf(ms: number): Urgency {
  if (ms <= 0) return "expired";
  if (ms < 15_000) return "urgent";
  if (ms < 60_000) return "soon";
  return "calm";
}

/** `9:05` style; rounds up so the display reaches 0:00 exactly at the deadline. */
export function formatRemaining(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/**
 * The "Give me more time" button's words for an open card whose deadline policy still lets it be
 * extended (`+10 min`, or the rest up to the maximum); null when it may not be.
 */
export function moreTimeLabel(card: {
  expiresAt: number;
  deadlinePolicy?: { maxExpiresAt: number; extendByMs: number } | undefined;
}): string | null {
  const policy = card.deadlinePolicy;
  if (!policy || policy.maxExpiresAt <= card.expiresAt) return null;
  const ms = Math.min(policy.extendByMs, policy.maxExpiresAt - card.expiresAt);
  const minutes = Math.round(ms / 60_000);
  return minutes >= 120
    ? `+${Math.round(minutes / 60)} h`
    : minutes >= 1
      ? `+${minutes} min`
      : `+${Math.ceil(ms / 1000)} s`;
}

/**
 * The one-line receipt every device shows once an interaction is resolved: the kind's words (sent
 * with the resolution), then a batch, a timeout and where it was answered.
 */
export function receiptText(resolution: Resolution, deviceId: string | null): string {
  // An external agent that gave up on its own card (its signal aborted) withdrew it.
  if (resolution.withdrawn)
    return `Withdrawn by ${resolution.resolvedBy?.replace(/^agent:/, "") || "the agent"}`;
  let text = resolution.receipt ?? OUTCOME_WORDS[resolution.outcome];
  if (resolution.batch && resolution.batch.size > 1) text += ` (all ${resolution.batch.size} at once)`;
  if (resolution.outcome === "timed_out") text += " — no answer arrived in time";
  return text + answeredWhere(resolution, deviceId);
}

/** A prompt still waiting, with the tool call it belongs to. */
export interface PendingPrompt {
  item: ToolItem;
  interaction: InteractionState;
}

/**
 * True when the prompt belongs to the agent on top of the stack, the one the person is talking to
 * (a prompt from a server that did not mark frames counts as the top's).
 */
export function isTopAgentPrompt(view: SessionView, interaction: Pick<InteractionState, "frameId">): boolean {
  const top = view.stack.at(-1)?.frameId ?? MAIN_FRAME_ID;
  return interaction.frameId === undefined || interaction.frameId === top;
}

/**
 * Pending interactions: the top agent's first, then those of agents below it (a parent's cards
 * stay open while its delegated agent runs), each in transcript order. The first is the "top"
 * card: it takes focus and keyboard shortcuts act on it.
 */
export function pendingInteractions(view: SessionView): PendingPrompt[] {
  const top: PendingPrompt[] = [];
  const below: PendingPrompt[] = [];
  for (const id of view.order) {
    const item = view.items.get(id);
    const interaction = item?.kind === "tool" ? openInteraction(item) : null;
    if (item?.kind !== "tool" || !interaction) continue;
    (isTopAgentPrompt(view, interaction) ? top : below).push({ item, interaction });
  }
  return [...top, ...below];
}

/** Tool arguments as readable, indented JSON; a partial stream is shown as it arrived. */
export function prettyArguments(item: Pick<ToolItem, "input" | "argsJson">): string {
  if (item.input !== undefined) return JSON.stringify(item.input, null, 2) ?? "";
  try {
    return JSON.stringify(JSON.parse(item.argsJson), null, 2);
  } catch {
    return item.argsJson;
  }
}

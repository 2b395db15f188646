// Pure wording and arithmetic for interaction cards: receipts, countdowns, answer summaries and
// the AskUserQuestion request shape, kept apart from the DOM so they are unit-tested.
import type { PlanRequest, Question } from "../../src/interactions/kinds/index";
import type { AnswerValue, InteractionResolution } from "../../src/protocol/index";
import { MAIN_FRAME_ID } from "../../src/protocol/main-frame";
import { OUTCOME_WORDS } from "../../src/protocol/outcome-words";
import { answeredWhere } from "./answered-where";
import { type InteractionState, openInteraction, type SessionView, type ToolItem } from "./session-state";

export type { AnswerValue, Question };

/** What a receipt reads from a resolution. */
type Resolution = Pick<
  InteractionResolution,
  "outcome" | "resolvedBy" | "answeredBy" | "resolvedAt" | "batch" | "receipt"
> &
  Partial<Pick<InteractionResolution, "withdrawn">>;

/** Reads an AskUserQuestion request defensively; unknown shapes give no questions. */
export function questionsOf(request: unknown): Question[] {
  const list = (request as { questions?: unknown } | null)?.questions;
  if (!Array.isArray(list)) return [];
  return list.map((raw: Record<string, unknown>) => ({
    question: String(raw?.question ?? ""),
    header: String(raw?.header ?? ""),
    multiSelect: raw?.multiSelect === true,
    options: Array.isArray(raw?.options)
      ? raw.options.map((o: Record<string, unknown>) => ({
          label: String(o?.label ?? ""),
          description: String(o?.description ?? ""),
          ...(typeof o?.preview === "string" ? { preview: o.preview } : {}),
        }))
      : [],
  }));
}

/** Reads an ExitPlanMode request defensively: the plan's markdown, or "" for unknown shapes. */
export function planOf(request: unknown): PlanRequest["plan"] {
  const plan = (request as { plan?: unknown } | null)?.plan;
  return typeof plan === "string" ? plan : "";
}

/** Milliseconds left on the server's clock, given the skew measured at hello. */
export function remainingMs(interaction: InteractionState, clockSkewMs: number, localNow: number): number {
  return Math.max(0, interaction.expiresAt - (localNow + clockSkewMs));
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

/** Finds the answers map in a resolution response (`{answers}` or the map itself). */
function answersOf(response: unknown): Record<string, AnswerValue> {
  if (!response || typeof response !== "object") return {};
  const inner = (response as { answers?: unknown }).answers;
  return (inner && typeof inner === "object" ? inner : response) as Record<string, AnswerValue>;
}

/** `header: answer` lines for the compact summary, matching keys by question text or index. */
export function answerSummary(
  questions: Question[],
  response: unknown,
): { header: string; answer: string }[] {
  const answers = answersOf(response);
  return questions.map((q, i) => {
    const value = answers[q.question] ?? answers[String(i)];
    const answer = Array.isArray(value) ? value.join(", ") : typeof value === "string" ? value : "—";
    return { header: q.header || q.question, answer };
  });
}

/** True when every question has a usable answer (Other needs text; multi-select needs one pick). */
export function allAnswered(
  questions: Question[],
  answers: Record<string, AnswerValue | undefined>,
): boolean {
  return questions.every((q) => {
    const value = answers[q.question];
    if (Array.isArray(value)) return value.length > 0 && value.every((v) => v.trim() !== "");
    return typeof value === "string" && value.trim() !== "";
  });
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

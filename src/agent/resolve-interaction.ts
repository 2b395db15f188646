// Resolving a pending interaction: a person's answer, the deadline, or a cancel. The first
// resolution wins by compare-and-set; the result row and the receipt event are written together.

import { answererName, type Decider } from "../protocol/cards/decider";
import type { ApprovalCounted } from "../protocol/grants/approval-policy";
import type { BatchMark, InteractionOutcome, InteractionResolution } from "../protocol/session/session";
import { type ErrorBody, unknownInteraction } from "../protocol/wire/errors";
import type { AgentDeps } from "./agent-deps";
import { countApproval } from "./count-approval";
import { refuseEditedInput } from "./edited-input";
import { isExternalInteraction } from "./external-id";
import { markOf, topMark } from "./frame-mark";
import type { InteractionRecord } from "./ports";
import { isToolForm } from "./tool-elicitation";
import { recordResult } from "./tool-results";

export type ResolveResult =
  | {
      ok: true;
      resolution: InteractionResolution /** The response also stops the turn. */;
      stopTurn?: true;
      counted?: undefined;
    }
  | ApprovalWaits
  | { ok: false; error: ErrorBody };

/** An approval counted on a card that needs more distinct approvals: it stays open. */
export type ApprovalWaits = {
  ok: true;
  counted: ApprovalCounted;
  resolution?: undefined;
  stopTurn?: undefined;
};

/** The receipt of a resolved interaction (callers hold one that lost a compare-and-set). */
function resolutionOf(
  deps: Pick<AgentDeps, "frames" | "kinds">,
  record: InteractionRecord,
): InteractionResolution {
  if (record.status === "pending") throw new Error(`interaction ${record.id} is still pending`);
  return {
    toolCallId: record.toolCallId,
    interactionId: record.id,
    kind: record.kind,
    outcome: record.status,
    response: record.response,
    resolvedBy: record.resolvedBy,
    ...(record.answeredBy ? { answeredBy: record.answeredBy } : {}),
    ...(record.decider ? { decider: record.decider } : {}),
    resolvedAt: record.resolvedAt ?? 0,
    receipt: deps.kinds.receipt(record.kind, record.status, record.response),
    ...markOf(deps, record.frameId),
  };
}

/** A person's answer to one card, as it entered the session. */
export interface CardAnswer {
  interactionId: string;
  /** The kind the command addresses; null: any. */
  kind: string | null;
  /** The answer as sent, read by the card's kind. */
  response: unknown;
  /** The client's own name for the device it came from. */
  deviceId: string | null;
  /** Who answered, as the server knew them where the answer entered; null when unknown. */
  decider?: Decider | null | undefined;
  /** Marks a card decided by one "Approve all" / "Deny all". */
  batch?: BatchMark | undefined;
}

/**
 * Applies a person's answer; the result is what it did: the resolution written (and whether it
 * also stops the turn), an approval counted towards a card that stays open, or a precise refusal.
 */
export function answerInteraction(deps: AgentDeps, answer: CardAnswer): ResolveResult {
  const { interactionId: id, kind: expectedKind, response: raw, deviceId, batch } = answer;
  const decider = answer.decider ?? null;
  const answeredBy = answererName(decider);
  const record = deps.interactions.get(id);
  if (!record) return unknownInteraction(id);
  if (expectedKind && record.kind !== expectedKind) {
    return {
      ok: false,
      error: {
        code: "wrong_interaction_kind",
        message: `Interaction "${id}" is a ${record.kind}, not a ${expectedKind}`,
      },
    };
  }
  if (record.status !== "pending") return alreadyResolved(deps, record);
  const at = deps.clock.now();
  // Every device's countdown promised this deadline: an answer after it loses to the timeout,
  // even when the alarm has not run yet.
  if (record.deadline <= at) {
    timeOutDue(deps, at);
    return alreadyResolved(deps, deps.interactions.get(id) ?? record);
  }
  const parsed = deps.kinds.respond(record.kind, record.request, raw);
  if (!parsed.ok) {
    const fields = parsed.fields ? { fields: parsed.fields } : {};
    return { ok: false, error: { code: "invalid_answer", message: parsed.message, ...fields } };
  }
  const badEdit = refuseEditedInput(deps, record, parsed.response);
  if (badEdit) return { ok: false, error: { code: "invalid_answer", message: badEdit } };
  if (parsed.outcome === "approved") {
    const counted = countApproval(deps, record, parsed.response, { deviceId, decider, at });
    if (counted) return counted;
  }

  if (!deps.interactions.resolve(id, parsed.outcome, parsed.response, deviceId, at, decider)) {
    return alreadyResolved(deps, deps.interactions.get(id) ?? record);
  }
  // A tool's own form gives the tool its answer when it runs again, not a result of its own.
  if (parsed.result && ownsResult(record))
    recordResult(deps, record.toolCallId, record.toolName, parsed.result, markOf(deps, record.frameId));
  if (parsed.remember) deps.rules.allow(record.toolName);
  // Like the SDK's setMode: effective for the rest of this turn and the session, on every device.
  if (parsed.mode) deps.turn.setMode(parsed.mode, answeredBy);
  const resolved = announceResolution(deps, {
    record,
    outcome: parsed.outcome,
    response: parsed.response,
    resolvedBy: deviceId,
    resolvedAt: at,
    decider,
    ...(batch ? { batch } : {}),
  });
  // "Always allow" covers this tool's later calls; cards already open (other arguments a person has
  // not read yet) stay open, and only "Approve all" decides several at once.
  markRunningWhenNobodyIsAsked(deps);
  return parsed.stopTurn && resolved.ok ? { ...resolved, stopTurn: true } : resolved;
}

/**
 * Resolves every pending interaction whose deadline has passed as its deadline policy says — timed
 * out (deny, and keep waiting once its maximum is reached) or cancelled; returns how many it resolved.
 */
export function timeOutDue(deps: AgentDeps, now: number): number {
  let count = 0;
  for (const record of deps.interactions.due(now)) {
    const outcome = deps.cardDeadlines?.onDeadline(record.id) ?? "timed_out";
    const decider = outcome === "cancelled" ? POLICY_DECIDER : DEADLINE_DECIDER;
    if (!deps.interactions.resolve(record.id, outcome, null, null, now, decider)) continue;
    // A tool's form that lapsed is a `cancel` for the tool to handle when it runs again.
    if (ownsResult(record)) {
      const timeoutMs = record.deadline - record.createdAt;
      recordResult(
        deps,
        record.toolCallId,
        record.toolName,
        outcome === "cancelled"
          ? deps.kinds.cancelled(record.kind, record.request)
          : deps.kinds.timeout(record.kind, record.request, { timeoutMs }),
        markOf(deps, record.frameId),
      );
    }
    announceResolution(deps, { record, outcome, response: null, resolvedBy: null, resolvedAt: now, decider });
    count += 1;
  }
  if (count > 0) markRunningWhenNobodyIsAsked(deps);
  return count;
}

/** The decider of a card whose deadline passed: it timed out (a denial), whatever the grants. */
export const DEADLINE_DECIDER: Decider = { kind: "deadline", label: null, id: null, device: null };
/** The decider of a card its deadline policy cancelled when the deadline passed. */
export const POLICY_DECIDER: Decider = { kind: "policy", label: "deadline policy", id: null, device: null };
/** The decider of cards the session closed itself (a turn that failed, an agent stopped with them). */
export const SYSTEM_DECIDER: Decider = { kind: "system", label: null, id: null, device: null };

/** Who cancels which cards: the device and decider (the session itself when none), one frame's or all. */
export interface CancelPending {
  deviceId: string | null;
  /** The frame whose cards are cancelled; every frame's when null or absent. */
  frameId?: string | null;
  decider?: Decider;
}

/** Cancels the pending interactions `cancel` names, so no card can be answered afterwards. */
export function cancelPending(deps: AgentDeps, cancel: CancelPending): void {
  const { deviceId, frameId = null, decider = SYSTEM_DECIDER } = cancel;
  const now = deps.clock.now();
  for (const record of deps.interactions.pending()) {
    if (frameId !== null && record.frameId !== frameId) continue;
    if (!deps.interactions.resolve(record.id, "cancelled", null, deviceId, now, decider)) continue;
    // A tool's form gets the cancel as its call's result (the turn ends; the tool will not run again).
    if (!isExternalInteraction(record)) {
      recordResult(
        deps,
        record.toolCallId,
        record.toolName,
        deps.kinds.cancelled(record.kind, record.request),
        markOf(deps, record.frameId),
      );
    }
    const cancelled = { outcome: "cancelled" as const, response: null, resolvedBy: deviceId };
    announceResolution(deps, { record, ...cancelled, resolvedAt: now, decider });
  }
}

/**
 * Cancels one card an external agent opened, because the agent withdrew it (`withdrawnBy`); false
 * when it was already resolved. No tool result is written: the agent learns it by reading the card.
 */
export function cancelExternal(
  deps: AgentDeps,
  record: InteractionRecord,
  withdrawnBy: string,
  decider: Decider,
): boolean {
  const now = deps.clock.now();
  return deps.atomically(() => {
    if (!deps.interactions.resolve(record.id, "cancelled", null, withdrawnBy, now, decider)) return false;
    const withdrawn = { outcome: "cancelled" as const, response: null, withdrawn: true as const };
    announceResolution(deps, { record, ...withdrawn, resolvedBy: withdrawnBy, resolvedAt: now, decider });
    return true;
  });
}

/**
 * Whether resolving `record` writes a tool result: not for a tool's own form (the tool reads the
 * answer when it runs again), nor for an external agent's card (the agent reads it over the API).
 */
function ownsResult(record: InteractionRecord): boolean {
  return !isToolForm(record) && !isExternalInteraction(record);
}

/** What announcing a resolution writes: the receipt event, and the alarm's next deadline. */
type AnnounceDeps = Pick<AgentDeps, "kinds" | "events" | "deadlines" | "frames">;

/** One card's resolution as it was decided, after its compare-and-set won. */
export interface Decided {
  record: InteractionRecord;
  outcome: InteractionOutcome;
  response: unknown;
  /** What the receipt names as resolving it: a device id, a grant, a withdrawing agent; null for a deadline. */
  resolvedBy: string | null;
  resolvedAt: number;
  /** Who decided it, as the server knew them; null when unknown. */
  decider: Decider | null;
  /** A card decided by one "Approve all" / "Deny all". */
  batch?: BatchMark;
  /** A card its agent withdrew. */
  withdrawn?: true;
}

/** The receipt every device is sent for `decided`: the one value announcing it writes. */
export function receiptOf(
  deps: Pick<AgentDeps, "kinds" | "frames">,
  decided: Decided,
): InteractionResolution {
  const { record, outcome, response, resolvedBy, resolvedAt, batch, withdrawn, decider } = decided;
  const answeredBy = answererName(decider);
  return {
    toolCallId: record.toolCallId,
    interactionId: record.id,
    kind: record.kind,
    outcome,
    response,
    resolvedBy,
    ...(answeredBy ? { answeredBy } : {}),
    ...(decider ? { decider } : {}),
    resolvedAt,
    ...(batch ? { batch } : {}),
    ...(withdrawn ? { withdrawn } : {}),
    receipt: deps.kinds.receipt(record.kind, outcome, response),
    ...markOf(deps, record.frameId),
  };
}

/**
 * Announces a card's resolution: its receipt becomes an `interaction_resolved` event (stored, then
 * broadcast by the event store) and the alarm re-arms to the next deadline. Returns the receipt.
 */
function announceResolution(
  deps: AnnounceDeps,
  decided: Decided,
): { ok: true; resolution: InteractionResolution } {
  const resolution = receiptOf(deps, decided);
  deps.events.append("interaction_resolved", resolution);
  deps.deadlines.rearm();
  return { ok: true, resolution };
}

/**
 * The pending interactions of the frame on top of the stack: the ones the loop waits on now. A
 * parent's cards stay open while its delegated agent runs; they hold only the parent's barrier.
 */
export function pendingOnTop(deps: Pick<AgentDeps, "interactions" | "frames">) {
  const { frameId } = topMark(deps);
  return deps.interactions.pending().filter((record) => record.frameId === frameId);
}

/**
 * Once nothing the top agent waits on is left to a person, the turn is working again. Saying so
 * here rather than when the loop gets to it matters: the loop may still be busy with a tool
 * approved earlier in the batch.
 */
function markRunningWhenNobodyIsAsked(deps: AgentDeps): void {
  if (deps.turn.current() && pendingOnTop(deps).length === 0) deps.turn.setStatus("running");
}

export function alreadyResolved(
  deps: Pick<AgentDeps, "frames" | "kinds">,
  record: InteractionRecord,
): { ok: false; error: ErrorBody } {
  return {
    ok: false,
    error: {
      code: "already_resolved",
      message: `Interaction "${record.id}" was already ${record.status.replace("_", " ")}`,
      resolution: resolutionOf(deps, record),
    },
  };
}

/** True when a chat message now would answer an open card (see `replyInChat`). */
export function chatAnswersACard(deps: AgentDeps): boolean {
  const at = deps.clock.now();
  return pendingOnTop(deps).some((record) => record.deadline > at && deps.kinds.readsChat(record.kind));
}

/**
 * A chat message sent while cards are open answers the ones whose kind reads chat (an open
 * AskUserQuestion becomes the SDK's `replied_in_chat`), so the message reaches the model with
 * their results instead of queueing behind the turn. Returns the cards it resolved. A message
 * goes to the agent on top of the stack, so only that agent's cards read it: a parent's question
 * left open while its delegated agent talks with the person is answered on its card.
 */
export function replyInChat(
  deps: AgentDeps,
  text: string,
  deviceId: string | null,
  decider: Decider | null = null,
): string[] {
  const at = deps.clock.now();
  const answered: string[] = [];
  for (const record of pendingOnTop(deps)) {
    if (record.deadline <= at) continue; // the deadline already decided this card
    const reply = deps.kinds.chatReply(record.kind, record.request, text);
    if (!reply || !deps.interactions.resolve(record.id, "answered", reply.response, deviceId, at, decider))
      continue;
    if (ownsResult(record))
      recordResult(deps, record.toolCallId, record.toolName, reply.result, markOf(deps, record.frameId));
    const replied = { outcome: "answered" as const, response: reply.response };
    announceResolution(deps, { record, ...replied, resolvedBy: deviceId, resolvedAt: at, decider });
    answered.push(record.toolCallId);
  }
  if (answered.length > 0) markRunningWhenNobodyIsAsked(deps);
  return answered;
}

/** Who resolved a card a grant decided, in `resolvedBy`. */
export const GRANT_BY_PREFIX = "grant:";

/**
 * Resolves a just-created card as one of the person's grants decided it — approved, or denied with
 * the grant's reason — without asking anyone: no prompt event was written, so no device shows it.
 */
export function resolveByGrant(
  deps: AnnounceDeps & Pick<AgentDeps, "clock" | "interactions" | "results">,
  record: InteractionRecord,
  verdict: { effect: "allow" | "deny"; grantId: string; rule: string; reason: string | null },
): ResolveResult {
  const at = deps.clock.now();
  const allowed = verdict.effect === "allow";
  const response = allowed
    ? { decision: "approve", remember: false }
    : { decision: "deny", reason: verdict.reason ?? `Refused by the grant ${verdict.rule}` };
  const outcome = allowed ? "approved" : "denied";
  const by = `${GRANT_BY_PREFIX}${verdict.grantId}`;
  const decider: Decider = { kind: "grant", label: verdict.rule, id: verdict.grantId, device: null };
  if (!deps.interactions.resolve(record.id, outcome, response, by, at, decider))
    return alreadyResolved(deps, record);
  if (!allowed && ownsResult(record)) {
    recordResult(
      deps,
      record.toolCallId,
      record.toolName,
      {
        content: `Tool use refused by the person's grant ${verdict.rule}${verdict.reason ? `: ${verdict.reason}` : ""}`,
        isError: true,
      },
      markOf(deps, record.frameId),
    );
  }
  return announceResolution(deps, { record, outcome, response, resolvedBy: by, resolvedAt: at, decider });
}

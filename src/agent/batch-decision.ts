// "Approve all" / "Deny all": one decision for the open approval cards of one assistant message,
// checked whole (never approving a call Parley assessed as high risk), then applied in one
// transaction with one compare-and-set per card; cards decided first elsewhere are reported.

import { isHighRisk } from "../assessment/assessment-words";
import { BATCHED_KIND_NAMES } from "../interactions/kinds/names";
import type { ContentBlockParam, MessageParam } from "../model/model-client";
import type { Decider } from "../protocol/cards/decider";
import type { InteractionResolution } from "../protocol/session/session";
import type { DecideBatchCommand } from "../protocol/wire/commands";
import type { ErrorBody } from "../protocol/wire/errors";
import type { AgentDeps } from "./agent-deps";
import type { InteractionRecord } from "./ports";
import { answerInteraction } from "./resolve-interaction";

export type BatchDecision = Omit<DecideBatchCommand, "type" | "requestId">;

/** What a batch did: the cards it decided, and the ones another decision had already settled. */
export interface BatchOutcome {
  batchId: string;
  decided: InteractionResolution[];
  alreadyResolved: InteractionResolution[];
  /** The denial also stopped the turn. */
  stopped: boolean;
}

export type BatchResult = { ok: true; outcome: BatchOutcome } | { ok: false; error: ErrorBody };

/** Only cards of these kinds share one "approve" or "deny" that fits them all (their `batchResponse`). */
const BATCHED = new Set(BATCHED_KIND_NAMES);

/**
 * Checks a batch without touching storage: every card exists, is an approval, is named once, and
 * all belong to one assistant message (`messageOf` names the message that called a tool, or
 * null). Returns the records in the order named, or the first problem.
 */
export function checkBatch(
  toolCallIds: readonly string[],
  find: (toolCallId: string) => InteractionRecord | null,
  messageOf: (toolCallId: string) => string | number | null,
): { ok: true; records: InteractionRecord[] } | { ok: false; error: ErrorBody } {
  const seen = new Set<string>();
  const records: InteractionRecord[] = [];
  let message: { index: string | number; firstId: string } | null = null;
  for (const id of toolCallIds) {
    if (seen.has(id)) return invalid(`"${id}" is named twice in the batch`);
    seen.add(id);
    const record = find(id);
    const index = record ? messageOf(id) : null;
    if (!record || index === null) {
      return {
        ok: false,
        error: {
          code: "unknown_interaction",
          message: `No interaction with toolCallId "${id}" in this session`,
        },
      };
    }
    if (!BATCHED.has(record.kind)) {
      return {
        ok: false,
        error: {
          code: "wrong_interaction_kind",
          message: `Interaction "${id}" is a ${record.kind}; a batch decides ${BATCHED_KIND_NAMES.join(" or ")} cards only`,
        },
      };
    }
    if (message === null) message = { index, firstId: id };
    else if (message.index !== index) {
      return invalid(
        `"${message.firstId}" and "${id}" belong to different assistant messages; a batch decides the cards of one message`,
      );
    }
    records.push(record);
  }
  return { ok: true, records };
}

/** Applies a checked batch atomically. The caller stops the turn when `stopped` says so. */
export function decideBatch(
  deps: AgentDeps,
  batch: BatchDecision,
  deviceId: string | null,
  decider: Decider | null = null,
): BatchResult {
  // A parent's cards stay open while its delegated agent runs: each card is found in its own frame.
  const indexes = new Map<string, Map<string, number>>();
  const messageOf = (id: string): string | null => {
    const frameId = deps.interactions.get(id)?.frameId;
    if (frameId === undefined) return null;
    let index = indexes.get(frameId);
    if (!index) {
      index = toolUseIndex(deps.transcript.messagesOf(frameId));
      indexes.set(frameId, index);
    }
    const at = index.get(id);
    return at === undefined ? null : `${frameId}#${at}`;
  };
  const checked = checkBatch(batch.toolCallIds, (id) => deps.interactions.get(id), messageOf);
  if (!checked.ok) return checked;
  if (batch.decision === "approve") {
    const refused = highRiskRefusal(checked.records);
    if (refused) return refused;
  }
  const words = { decision: batch.decision, reason: batch.reason, stop: batch.stop };
  const responses = new Map(checked.records.map((r) => [r.id, deps.kinds.batchResponse(r.kind, words)]));
  // The response must fit every card before any is decided, so a bad reason changes nothing.
  for (const record of checked.records) {
    const fits = deps.kinds.respond(record.kind, record.request, responses.get(record.id));
    if (!fits.ok) return { ok: false, error: { code: "invalid_answer", message: fits.message } };
  }
  const mark = { id: deps.newId("batch"), size: checked.records.length };
  return deps.atomically(() => {
    const outcome: BatchOutcome = { batchId: mark.id, decided: [], alreadyResolved: [], stopped: false };
    for (const record of checked.records) {
      const response = responses.get(record.id);
      const result = answerInteraction(deps, {
        interactionId: record.id,
        kind: record.kind,
        response,
        deviceId,
        batch: mark,
        decider,
      });
      // A card that needs several distinct approvals counts this one and waits for the rest.
      if (result.ok && result.counted) continue;
      if (result.ok) {
        outcome.decided.push(result.resolution);
        if (result.stopTurn) outcome.stopped = true;
      } else if (result.error.code === "already_approved") {
        // This answerer's approval of it was counted before: it still counts once.
      } else if (result.error.code === "already_resolved") {
        outcome.alreadyResolved.push(result.error.resolution as InteractionResolution);
      } else {
        // Checked above; anything else is a bug, and throwing rolls the whole batch back.
        throw new Error(`batch card ${record.toolCallId}: ${result.error.message}`);
      }
    }
    return { ok: true, outcome };
  });
}

/**
 * "Approve all" never approves a call Parley assessed as high risk: a person approves it on its own
 * card, having seen what it does. Refused whole, so a batch that names one decides nothing.
 */
export function highRiskRefusal(
  records: readonly InteractionRecord[],
): { ok: false; error: ErrorBody } | null {
  const high = records.find((record) => isHighRisk(record.request));
  if (!high) return null;
  return {
    ok: false,
    error: {
      code: "invalid_answer",
      message: `"${high.toolCallId}" asks about a call Parley assessed as high risk; approve it on its own card, not with "Approve all"`,
    },
  };
}

/** Index of the assistant message that called each tool. */
function toolUseIndex(messages: readonly MessageParam[]): Map<string, number> {
  const index = new Map<string, number>();
  messages.forEach((message, i) => {
    if (message.role !== "assistant" || typeof message.content === "string") return;
    for (const block of message.content as ContentBlockParam[]) {
      if (block.type === "tool_use") index.set(block.id, i);
    }
  });
  return index;
}

function invalid(message: string): { ok: false; error: ErrorBody } {
  return { ok: false, error: { code: "invalid_input", message } };
}

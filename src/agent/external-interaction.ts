// Interactions an agent that runs elsewhere opens, reads and withdraws (docs/external-agents.md#external-agents). They are the
// same rows, prompt events and deadlines as the loop's own cards; only who opens them differs, and
// no tool result is written for them, since no transcript waits on them.

import { assessCall } from "../assessment/assess-call";
import { grantOfferFor } from "../grants/grant-offer";
import { PERMISSION_GATE_KIND } from "../interactions/kinds/names";
import type {
  ExternalInteraction,
  OpenedInteraction,
  OpenInteractionBody,
} from "../protocol/external/external";
import { MAX_CARD_REQUEST_BYTES, MAX_PENDING_EXTERNAL_CARDS } from "../protocol/limits";
import { MAIN_FRAME_ID } from "../protocol/session/agents";
import { type ErrorBody, unknownInteraction } from "../protocol/wire/errors";
import type { AgentDeps } from "./agent-deps";
import { cardDeadline } from "./card-deadline";
import {
  EXTERNAL_ID_PREFIX,
  externalMark,
  isExternalInteraction,
  WITHDRAWN_BY_PREFIX,
  withdrawnBy,
} from "./external-id";
import { openApprovals } from "./open-interaction";
import type { GrantDecision, InteractionRecord } from "./ports";
import { cancelExternal, resolveByGrant } from "./resolve-interaction";

export type { GrantDecision } from "./ports";

/** Finds and records the agent's own key for an interaction (unique in the session). */
export interface ExternalKeys {
  find(key: string): string | null;
  keyOf(interactionId: string): string | null;
  set(interactionId: string, key: string): void;
}

export type ExternalOutcome<T> = { ok: true; created: boolean; result: T } | { ok: false; error: ErrorBody };

/**
 * Opens a card for the agent, or returns the one its `key` already names (pending or resolved) when
 * the request is the same (`key_conflict` when it is not).
 * The request is checked by the kind's own schema; a bad one changes nothing.
 */
export function openExternalInteraction(
  deps: Pick<
    AgentDeps,
    | "approvals"
    | "atomically"
    | "cardDeadlines"
    | "clock"
    | "deadlines"
    | "events"
    | "frames"
    | "interactions"
    | "kinds"
    | "newId"
    | "results"
    | "settings"
  >,
  keys: ExternalKeys,
  agent: string,
  body: OpenInteractionBody,
  granted: GrantDecision | null = null,
): ExternalOutcome<OpenedInteraction> {
  const size = jsonBytes(body.request);
  if (size > MAX_CARD_REQUEST_BYTES) {
    return refuse(
      "payload_too_large",
      `request is ${size} bytes; a card's request may be at most ${MAX_CARD_REQUEST_BYTES}`,
    );
  }
  const kind = deps.kinds.get(body.kind);
  if (!kind) {
    const known = deps.kinds.kinds.map((k) => k.kind).join(", ");
    return invalid(`kind: unknown interaction kind "${body.kind}" (known: ${known})`);
  }
  const fromAgent = deps.kinds.fromAgent(body.kind, body.request);
  const opened = deps.kinds.open(
    body.kind,
    body.kind === PERMISSION_GATE_KIND ? withAssessment(fromAgent, body.cwd ?? null) : fromAgent,
  );
  if (!opened.ok) return invalid(prefixFields("request", opened.message));
  if (body.key !== undefined) {
    const existing = keys.find(body.key);
    const record = existing === null ? null : deps.interactions.get(existing);
    if (record) {
      // A retry re-attaches; another card under the same key would be answered with this one's answer.
      if (record.kind !== kind.kind || canonicalJson(record.request) !== canonicalJson(opened.request)) {
        return refuse(
          "key_conflict",
          `key "${body.key}" already names a ${record.kind} card with another request; use a new key for a new card`,
        );
      }
      return { ok: true, created: false, result: openedView(record, false) };
    }
  }
  if (deps.interactions.pending().length >= MAX_PENDING_EXTERNAL_CARDS) {
    return refuse(
      "too_many_pending",
      `This session already holds ${MAX_PENDING_EXTERNAL_CARDS} pending cards; withdraw some or wait for answers`,
    );
  }
  const id = deps.newId(EXTERNAL_ID_PREFIX);
  const createdAt = deps.clock.now();
  const toolName = toolNameOf(opened.request) ?? kind.toolName ?? kind.kind;
  const card = (deadline: number) => ({
    id,
    toolCallId: id,
    frameId: MAIN_FRAME_ID,
    kind: kind.kind,
    toolName,
    request: opened.request,
    deadline,
    createdAt,
  });
  // Distinct approvals the call needs: an allow grant (one person's standing yes) never suffices
  // for one that needs several, while a deny grant still refuses it.
  const needed =
    kind.kind === PERMISSION_GATE_KIND
      ? (deps.approvals?.needed({ toolName, input: (opened.request as { input?: unknown }).input }) ?? 1)
      : 1;
  // A grant decides an approval at once: the card is stored resolved, and no device is asked.
  if (granted && kind.kind === PERMISSION_GATE_KIND && (needed <= 1 || granted.effect === "deny")) {
    deps.atomically(() => {
      deps.interactions.create(card(createdAt));
      if (body.key !== undefined) keys.set(id, body.key);
      const stored = deps.interactions.get(id);
      if (stored) resolveByGrant(deps, stored, granted);
    });
    return { ok: true, created: true, result: { interactionId: id, status: "resolved", created: true } };
  }
  const timeoutMs = body.timeoutMs ?? deps.settings.interactionTimeoutMs;
  const deadline = cardDeadline(deps, { id, kind: kind.kind, toolName, createdAt, timeoutMs });
  deps.atomically(() => {
    deps.interactions.create(card(deadline.expiresAt));
    if (body.key !== undefined) keys.set(id, body.key);
    const approvals = openApprovals(deps, id, needed);
    deps.events.append(deps.kinds.promptEvent(kind.kind), {
      ...approvals,
      toolCallId: id,
      interactionId: id,
      kind: kind.kind,
      toolName,
      request: opened.request,
      createdAt,
      ...(deps.kinds.readsChat(kind.kind) ? { readsChat: true as const } : {}),
      ...deadline,
      ...externalMark(agent),
    });
    deps.deadlines.rearm();
  });
  return { ok: true, created: true, result: { interactionId: id, status: "pending", created: true } };
}

/** The agent gave up (an aborted signal): its card is cancelled on every device. */
export function withdrawExternalInteraction(
  deps: AgentDeps,
  keys: ExternalKeys,
  agent: string,
  interactionId: string,
): ExternalOutcome<ExternalInteraction> {
  const record = deps.interactions.get(interactionId);
  if (!record || !isExternalInteraction(record)) return unknownInteraction(interactionId);
  // The agent's own process withdrew it (a bridge, or a client of the /interactions API).
  if (record.status === "pending")
    cancelExternal(deps, record, withdrawnBy(agent), {
      kind: "withdrawal",
      label: agent,
      id: null,
      device: "bridge",
    });
  const now = deps.interactions.get(interactionId) ?? record;
  return { ok: true, created: false, result: externalView(now, keys.keyOf(interactionId)) };
}

/** The interaction as the agent reads it; null when the session holds no such external card. */
export function readExternalInteraction(
  deps: Pick<AgentDeps, "interactions">,
  keys: ExternalKeys,
  interactionId: string,
): ExternalInteraction | null {
  const record = deps.interactions.get(interactionId);
  if (!record || !isExternalInteraction(record)) return null;
  return externalView(record, keys.keyOf(interactionId));
}

export function externalView(record: InteractionRecord, key: string | null): ExternalInteraction {
  return {
    interactionId: record.id,
    kind: record.kind,
    key,
    status: record.status === "pending" ? "pending" : "resolved",
    request: record.request,
    createdAt: record.createdAt,
    expiresAt: record.deadline,
    resolution:
      record.status === "pending"
        ? null
        : {
            outcome:
              record.status === "cancelled" && record.resolvedBy?.startsWith(WITHDRAWN_BY_PREFIX)
                ? "withdrawn"
                : record.status,
            response: record.response,
            by: record.resolvedBy,
            at: record.resolvedAt ?? record.createdAt,
          },
  };
}

function openedView(record: InteractionRecord, created: boolean): OpenedInteraction {
  return { interactionId: record.id, status: record.status === "pending" ? "pending" : "resolved", created };
}

/**
 * An approval's request with Parley's own assessment of its call and the grant a device may offer, read from the tool and input the
 * agent sent and the working folder its bridge reported (never from the agent's claim about it).
 */
function withAssessment(request: unknown, cwd: string | null): unknown {
  if (typeof request !== "object" || request === null || Array.isArray(request)) return request;
  const { toolName, input, suggestedRules } = request as {
    toolName?: unknown;
    input?: unknown;
    suggestedRules?: unknown;
  };
  if (typeof toolName !== "string") return request;
  const suggested = Array.isArray(suggestedRules)
    ? suggestedRules.filter((rule): rule is string => typeof rule === "string")
    : [];
  const offer = grantOfferFor({ toolName, input, cwd }, suggested);
  return {
    ...request,
    assessment: assessCall({ toolName, input, cwd }),
    ...(offer ? { grantOffer: offer } : {}),
  };
}

/** An approval names the tool it asks about; other kinds are named by their own tool. */
function toolNameOf(request: unknown): string | null {
  if (typeof request !== "object" || request === null) return null;
  const name = (request as { toolName?: unknown }).toolName;
  return typeof name === "string" ? name : null;
}

/** `questions.0.header: …` → `request.questions.0.header: …`, so the 400 names the field sent. */
function prefixFields(prefix: string, message: string): string {
  return message
    .split("; ")
    .map((clause) => (/^[\w.]+: /.test(clause) ? `${prefix}.${clause}` : `${prefix}: ${clause}`))
    .join("; ");
}

function invalid(message: string): { ok: false; error: ErrorBody } {
  return refuse("invalid_input", message);
}

function refuse(code: ErrorBody["code"], message: string): { ok: false; error: ErrorBody } {
  return { ok: false, error: { code, message } };
}

function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? "").byteLength;
}

/** JSON with every object's keys sorted, so two equal requests compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

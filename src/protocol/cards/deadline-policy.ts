// Deadline policies (docs/inbox.md#the-inbox): what a card's deadline does, chosen per kind and per tool — a
// deployment default in config, overridden per session — and stored with each card as it opens.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";

const MINUTE_MS = 60_000;
/** The longest any card may stay open, counted from when it opened: 7 days. */
export const MAX_CARD_WAIT_MS = 7 * 24 * 60 * MINUTE_MS;
/** Most reminders one card may send. */
export const MAX_REMINDERS = 5;

/**
 * `deny`: the card times out and the agent is told nobody answered (an approval's tool does not
 * run); `cancel`: the card is cancelled, as if a person had cancelled it; `keep_waiting`: the card
 * stays open until `maxWaitMs` after it opened, then times out as with `deny`.
 */
export const OnDeadline = lazySchema(() => z.enum(["deny", "cancel", "keep_waiting"]));
export type OnDeadline = z.infer<typeof OnDeadline>;

const Duration = lazySchema(() =>
  z
    .number()
    .int()
    .min(1_000, "must be at least 1000 ms")
    .max(MAX_CARD_WAIT_MS, `must be at most ${MAX_CARD_WAIT_MS} ms (7 days)`),
);

/** Most rungs one escalation ladder may have. */
export const MAX_ESCALATION_RUNGS = 5;

/** Where a rung reaches the person or the people who may answer for them. */
export const EscalationChannel = lazySchema(() => z.enum(["push", "chat", "email"]));
export type EscalationChannel = z.infer<typeof EscalationChannel>;

/**
 * One rung of an escalation ladder: `afterMs` after the card opened, if nobody answered, Parley
 * notifies `to` ("me": the person; "approvers": the people they invited to answer) on `notify`.
 */
export const EscalationRung = lazySchema(() =>
  z.strictObject({
    afterMs: Duration,
    notify: z
      .array(EscalationChannel)
      .min(1, "names at least one of push, chat, email")
      .refine((list) => new Set(list).size === list.length, "names each channel once"),
    to: z.enum(["me", "approvers"]),
  }),
);
export type EscalationRung = z.infer<typeof EscalationRung>;

/** A ladder climbs: each rung after the one before it. */
export const EscalationLadder = lazySchema(() =>
  z
    .array(EscalationRung)
    .max(MAX_ESCALATION_RUNGS, `at most ${MAX_ESCALATION_RUNGS} rungs`)
    .refine(
      (rungs) => rungs.every((rung, i) => i === 0 || rung.afterMs > (rungs[i - 1]?.afterMs ?? 0)),
      "each rung's afterMs must be later than the rung before it",
    ),
);

/** One layer of a policy: what it sets overrides the layers below it. */
export const DeadlinePolicyLayer = lazySchema(() =>
  z.strictObject({
    onDeadline: OnDeadline.optional(),
    /** The longest the card may stay open from when it opened: keep_waiting's deadline, and the limit of every extension. */
    maxWaitMs: Duration.optional(),
    /** Push and webhook reminders, each this long before the deadline. */
    remindBeforeMs: z.array(Duration).max(MAX_REMINDERS, `at most ${MAX_REMINDERS} reminders`).optional(),
    /** What one "Give me more time" adds to the deadline. */
    extendByMs: Duration.optional(),
    /** Who is told, and how, while the card waits: each rung once, stopping when the card resolves. */
    escalate: EscalationLadder.optional(),
  }),
);
export type DeadlinePolicyLayer = z.infer<typeof DeadlinePolicyLayer>;

/** `DEADLINE_POLICIES` and a session's `deadlinePolicies`: a default, then per kind, then per tool (most specific wins). */
export const DeadlinePolicies = lazySchema(() =>
  z.strictObject({
    default: DeadlinePolicyLayer.optional(),
    kinds: z.record(z.string().min(1).max(64), DeadlinePolicyLayer).optional(),
    tools: z.record(z.string().min(1).max(128), DeadlinePolicyLayer).optional(),
  }),
);
export type DeadlinePolicies = z.infer<typeof DeadlinePolicies>;

/** A card's policy once every layer is applied: what is stored with the card. */
export const DeadlinePolicy = lazySchema(() =>
  z.object({
    onDeadline: OnDeadline,
    maxWaitMs: Duration,
    remindBeforeMs: z.array(Duration),
    extendByMs: Duration,
    // Absent on cards stored before ladders existed: none.
    escalate: EscalationLadder.default([]),
  }),
);
export type DeadlinePolicy = z.infer<typeof DeadlinePolicy>;

/**
 * Without any configuration: deny at the deadline (as cards always did), no reminders, 10 more
 * minutes per extension up to a day, no escalation.
 */
export const DEFAULT_DEADLINE_POLICY: DeadlinePolicy = {
  onDeadline: "deny",
  maxWaitMs: 24 * 60 * MINUTE_MS,
  remindBeforeMs: [],
  extendByMs: 10 * MINUTE_MS,
  escalate: [],
};

/**
 * The policy of a card of `kind` opened by `toolName`: each source (config, then the session) gives
 * its default, kind and tool layers, applied in the order default < kind < tool, config before session.
 */
export function resolveDeadlinePolicy(
  sources: ReadonlyArray<DeadlinePolicies | null>,
  kind: string,
  toolName: string,
): DeadlinePolicy {
  const layers: Array<DeadlinePolicyLayer | undefined> = [];
  for (const pick of [
    (p: DeadlinePolicies) => p.default,
    (p: DeadlinePolicies) => own(p.kinds, kind),
    (p: DeadlinePolicies) => own(p.tools, toolName),
  ]) {
    for (const source of sources) if (source) layers.push(pick(source));
  }
  const policy = { ...DEFAULT_DEADLINE_POLICY };
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.onDeadline !== undefined) policy.onDeadline = layer.onDeadline;
    if (layer.maxWaitMs !== undefined) policy.maxWaitMs = layer.maxWaitMs;
    if (layer.remindBeforeMs !== undefined) policy.remindBeforeMs = layer.remindBeforeMs;
    if (layer.extendByMs !== undefined) policy.extendByMs = layer.extendByMs;
    if (layer.escalate !== undefined) policy.escalate = layer.escalate;
  }
  return policy;
}

// Own keys only: a tool named "constructor" must not find Object's.
function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Names the kinds a policy mentions that no kind has (a typo would otherwise apply to nothing),
 * as `kinds.<name>` entries; empty when every one is known.
 */
export function unknownPolicyKinds(policies: DeadlinePolicies, known: readonly string[]): string[] {
  return Object.keys(policies.kinds ?? {})
    .filter((kind) => !known.includes(kind))
    .map((kind) => `kinds.${kind}`);
}

/** What every device shows about a card's deadline: what it does, and how far it may be extended. */
export const CardDeadlineTerms = lazySchema(() =>
  z.object({
    onDeadline: OnDeadline,
    /** The latest the deadline may move to ("Give me more time" is offered while `expiresAt` is earlier). */
    maxExpiresAt: z.number(),
    extendByMs: z.number().int().positive(),
    /** The card's escalation ladder, when it has one, and how many of its rungs have run. */
    escalate: z.array(EscalationRung).optional(),
    escalated: z.number().int().nonnegative().optional(),
  }),
);
export type CardDeadlineTerms = z.infer<typeof CardDeadlineTerms>;

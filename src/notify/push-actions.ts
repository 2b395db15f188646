// Which cards a notification may answer by itself (Approve and Deny on the notification): an
// approval that one answer decides and that Parley assessed as not `high`. Everything else — and
// any card Parley has not assessed — opens the card instead.

/** The parts of a card the rule reads; anything else it is given is ignored. */
export interface ActionableCard {
  kind: string;
  request: unknown;
  /** Set on a card that needs several distinct approvals: one answer is not enough. */
  approvals?: unknown;
  /** Parley's assessment, where the card carries it beside its request. */
  assessment?: unknown;
}

/** The levels at which an approval may be answered from its notification. */
const QUICK_LEVELS: ReadonlySet<unknown> = new Set(["low", "medium"]);

/** Parley's assessed level of the call, or null when the card carries none (read defensively). */
export function assessedLevel(card: ActionableCard): unknown {
  const request = isRecord(card.request) ? card.request : {};
  const assessment = isRecord(card.assessment)
    ? card.assessment
    : isRecord(request.assessment)
      ? request.assessment
      : null;
  return assessment?.level ?? null;
}

/** True when the card's notification may carry Approve and Deny. Fails closed on anything unknown. */
export function answerableFromNotification(card: ActionableCard): boolean {
  if (card.kind !== "approval") return false;
  if (card.approvals !== undefined && card.approvals !== null) return false;
  if (!QUICK_LEVELS.has(assessedLevel(card))) return false;
  // The notification's answer is a plain approve or deny: never "always", a grant or edited input.
  return isRecord(card.request);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

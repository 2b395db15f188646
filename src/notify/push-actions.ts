// Which cards a notification may answer by itself (Approve and Deny on the notification): an
// approval that one answer decides, that Parley assessed as not `high`, and whose whole call fits
// the notification's text. Everything else — and any card Parley has not assessed — opens the card.
import { PERMISSION_GATE_KIND } from "../interactions/kinds/names";
import type { CardNotice } from "../protocol/reach/notify";
import { inert } from "../protocol/text/inert-text";

/**
 * The longest call a notification shows whole. Platforms fold a notification's body after a few
 * lines, so a longer call could not be read in full where Approve is pressed: it opens the card.
 */
export const MAX_WHOLE_CALL_CHARS = 160;

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
  if (card.kind !== PERMISSION_GATE_KIND) return false;
  if (card.approvals !== undefined && card.approvals !== null) return false;
  if (!QUICK_LEVELS.has(assessedLevel(card))) return false;
  // The notification's answer is a plain approve or deny: never "always", a grant or edited input.
  if (!isRecord(card.request)) return false;
  // One-tap Approve only where the notification shows the whole call, literally.
  return wholeCallText(card) !== null;
}

/**
 * The call as a notification shows it in full — a shell command as written, any other call as its
 * tool and compact input — made inert; null when it is longer than a notification shows whole.
 */
export function wholeCallText(card: ActionableCard): string | null {
  const request = isRecord(card.request) ? card.request : {};
  const toolName = typeof request.toolName === "string" ? request.toolName : "";
  const input = request.input;
  const command = isRecord(input) && typeof input.command === "string" ? input.command : null;
  let text: string;
  if (toolName === "Bash" && command !== null) text = `$ ${command}`;
  else {
    const json = JSON.stringify(input ?? {});
    text = `${toolName} ${json ?? ""}`.trim();
  }
  const shown = inert(text);
  // A second line would fold out of sight under the first, so a multi-line call opens the card.
  return shown.length <= MAX_WHOLE_CALL_CHARS && !/[\r\n]/.test(shown) ? shown : null;
}

/**
 * The push of a card that just opened, marked answerable where the rule allows: Approve then stands
 * beside the whole call, so the body leads with it. The inbox's pushes and a session's own use this.
 */
export function withNotificationAnswer(notice: CardNotice, card: ActionableCard): CardNotice {
  if (notice.change === "resolved" || !answerableFromNotification(card)) return notice;
  return { ...notice, answerable: true, body: `${wholeCallText(card)}\n${notice.body}` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

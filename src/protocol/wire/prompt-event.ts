// Telling a prompt event from the others without naming the kinds that announce prompts their own
// way (their seed event names are listed once, in seed-names.ts). No schema code: the page uses it.
import type { SessionEvent } from "./events";
import { isPromptEventType, type PromptEventType } from "./seed-names";

/** True for an event that opens a card (`interaction_prompt`, or a kind's older name for it). */
export function isPromptEvent(
  event: SessionEvent,
): event is Extract<SessionEvent, { type: PromptEventType }> {
  return isPromptEventType(event.type);
}

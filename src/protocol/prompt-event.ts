// Telling a prompt event from the others without naming the kinds that announce prompts their own
// way (their seed event names are listed once, in events.ts).
import { PROMPT_EVENT_TYPES, type PromptEventType, type SessionEvent } from "./events";

const PROMPT_EVENTS: ReadonlySet<string> = new Set(PROMPT_EVENT_TYPES);

/** True for an event that opens a card (`interaction_prompt`, or a kind's older name for it). */
export function isPromptEvent(
  event: SessionEvent,
): event is Extract<SessionEvent, { type: PromptEventType }> {
  return PROMPT_EVENTS.has(event.type);
}

// The session calendar that calendar_add_event keeps in its own tool state: the events, validated
// as they are read, one readable line each in the tool's results, and the overlap check.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import type { ToolState } from "../tool-state";

const EVENTS_KEY = "events";

export const CalendarEvent = lazySchema(() =>
  z.object({
    /** As the person entered it (ISO date and time, with or without an offset). */
    start: z.string(),
    minutes: z.number().int().positive(),
    title: z.string(),
  }),
);
export type CalendarEvent = z.infer<typeof CalendarEvent>;

/** The stored events; a value this version cannot read counts as an empty calendar. */
export function readCalendar(state: ToolState): CalendarEvent[] {
  const parsed = z.array(CalendarEvent).safeParse(state.get(EVENTS_KEY));
  return parsed.success ? parsed.data : [];
}

export function writeCalendar(state: ToolState, events: CalendarEvent[]): void {
  state.put(EVENTS_KEY, events);
}

export function formatEvent(event: CalendarEvent): string {
  return `- ${event.start} · ${event.minutes} min · ${event.title}`;
}

/** The first event that shares any minute with `event`. */
export function firstOverlap(events: CalendarEvent[], event: CalendarEvent): CalendarEvent | null {
  const start = Date.parse(event.start);
  const end = start + event.minutes * 60_000;
  return (
    events.find((other) => {
      const otherStart = Date.parse(other.start);
      return otherStart < end && start < otherStart + other.minutes * 60_000;
    }) ?? null
  );
}

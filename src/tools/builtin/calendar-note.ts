// The session calendar that calendar_add_event keeps: one readable line per event in the note
// "calendar", so notes_read shows it as it is and the tool can find overlaps.

export const CALENDAR_NOTE = "calendar";

export interface CalendarEvent {
  /** As the person entered it (ISO date and time, with or without an offset). */
  start: string;
  minutes: number;
  title: string;
}

const LINE = /^- (\S+) · (\d+) min · (.*)$/;

export function formatEvent(event: CalendarEvent): string {
  return `- ${event.start} · ${event.minutes} min · ${event.title}`;
}

/** The events in a calendar note; lines it did not write (a person's edits) are skipped. */
export function parseCalendar(text: string): CalendarEvent[] {
  return text.split("\n").flatMap((line) => {
    const match = LINE.exec(line.trim());
    return match ? [{ start: match[1] ?? "", minutes: Number(match[2]), title: match[3] ?? "" }] : [];
  });
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

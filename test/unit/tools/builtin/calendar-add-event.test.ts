import { describe, expect, it } from "vitest";
import type { ElicitResult } from "../../../../src/protocol/elicitation";
import { calendarAddEvent } from "../../../../src/tools/builtin/calendar-add-event";
import { firstOverlap, parseCalendar } from "../../../../src/tools/builtin/calendar-note";
import { ToolPause } from "../../../../src/tools/define-tool";
import { MemoryNotes } from "../../../helpers/memory-notes";
import { FIXED_NOW, toolContext } from "../tool-context";

/** A context whose k-th form gets the k-th answer, and which pauses when answers run out. */
function answering(answers: ElicitResult[], notes = new MemoryNotes(() => FIXED_NOW)) {
  const asked: unknown[] = [];
  const ctx = toolContext({
    notes,
    elicit: async (params) => {
      asked.push(params);
      const answer = answers[asked.length - 1];
      if (!answer) throw new ToolPause();
      return answer;
    },
  });
  return { ctx, asked, notes };
}

const details = (start: string, minutes = 30): ElicitResult => ({
  action: "accept",
  content: { title: "Dentist", start, minutes },
});

describe("calendar_add_event", () => {
  it("adds the confirmed event after one form when nothing overlaps", async () => {
    const { ctx, asked, notes } = answering([details("2026-12-01T09:00")]);
    const out = await calendarAddEvent.run({ title: "Dentist" }, ctx);
    expect(out).toBe("Added “Dentist” at 2026-12-01T09:00 for 30 minutes. The calendar has 1 event.");
    expect(asked).toHaveLength(1);
    expect(notes.get("calendar")?.text).toBe("- 2026-12-01T09:00 · 30 min · Dentist");
  });

  it("asks again on an overlap and writes nothing until that answer arrives", async () => {
    const notes = new MemoryNotes(() => FIXED_NOW);
    notes.put("calendar", "- 2026-12-01T09:15 · 15 min · Call");
    const { ctx } = answering([details("2026-12-01T09:00")], notes);
    await expect(calendarAddEvent.run({ title: "Dentist" }, ctx)).rejects.toBeInstanceOf(ToolPause);
    expect(notes.get("calendar")?.text).toBe("- 2026-12-01T09:15 · 15 min · Call");
  });

  it("says nothing was added on a decline or a dismissed form", async () => {
    expect(await calendarAddEvent.run({ title: "X" }, answering([{ action: "decline" }]).ctx)).toMatch(
      /declined/,
    );
    expect(await calendarAddEvent.run({ title: "X" }, answering([{ action: "cancel" }]).ctx)).toMatch(
      /dismissed/,
    );
  });

  it("finds overlaps by minute and ignores lines it did not write", () => {
    const events = parseCalendar("# my calendar\n- 2026-12-01T10:00 · 60 min · Standup\nfree text");
    expect(events).toEqual([{ start: "2026-12-01T10:00", minutes: 60, title: "Standup" }]);
    expect(firstOverlap(events, { start: "2026-12-01T11:00", minutes: 30, title: "A" })).toBeNull();
    expect(firstOverlap(events, { start: "2026-12-01T10:59", minutes: 5, title: "B" })?.title).toBe(
      "Standup",
    );
    expect(firstOverlap(events, { start: "2026-12-01T09:30", minutes: 30, title: "C" })).toBeNull();
  });
});

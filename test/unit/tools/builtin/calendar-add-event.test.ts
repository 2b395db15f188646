import { describe, expect, it } from "vitest";
import type { ElicitResult } from "../../../../src/protocol/forms/elicitation";
import { calendarAddEvent } from "../../../../src/tools/builtin/calendar-add-event";
import { firstOverlap, readCalendar } from "../../../../src/tools/builtin/calendar-events";
import { ToolPause } from "../../../../src/tools/define-tool";
import { MemoryToolStateStore, type ToolState, toolStateOf } from "../../../../src/tools/tool-state";
import { MemoryNotes } from "../../../helpers/memory-notes";
import { FIXED_NOW, toolContext } from "../tool-context";

const calendarState = () => toolStateOf(new MemoryToolStateStore(), "calendar_add_event");

/** A context whose k-th form gets the k-th answer, and which pauses when answers run out. */
function answering(answers: ElicitResult[], state: ToolState = calendarState()) {
  const asked: unknown[] = [];
  const notes = new MemoryNotes(() => FIXED_NOW);
  const ctx = toolContext({
    notes,
    state,
    elicit: async (params) => {
      asked.push(params);
      const answer = answers[asked.length - 1];
      if (!answer) throw new ToolPause();
      return answer;
    },
  });
  return { ctx, asked, state, notes };
}

const details = (start: string, minutes = 30): ElicitResult => ({
  action: "accept",
  content: { title: "Dentist", start, minutes },
});

describe("calendar_add_event", () => {
  it("adds the confirmed event after one form when nothing overlaps, and lists the calendar", async () => {
    const { ctx, asked, state, notes } = answering([details("2026-12-01T09:00")]);
    const out = await calendarAddEvent.run({ title: "Dentist" }, ctx);
    expect(out).toBe(
      "Added “Dentist” at 2026-12-01T09:00 for 30 minutes. The calendar has 1 event:\n- 2026-12-01T09:00 · 30 min · Dentist",
    );
    expect(asked).toHaveLength(1);
    expect(readCalendar(state)).toEqual([{ start: "2026-12-01T09:00", minutes: 30, title: "Dentist" }]);
    // The calendar is the tool's own state, not a note the person or the model might edit.
    expect(notes.list()).toEqual([]);
  });

  it("asks again on an overlap and writes nothing until that answer arrives", async () => {
    const state = calendarState();
    state.put("events", [{ start: "2026-12-01T09:15", minutes: 15, title: "Call" }]);
    const { ctx } = answering([details("2026-12-01T09:00")], state);
    await expect(calendarAddEvent.run({ title: "Dentist" }, ctx)).rejects.toBeInstanceOf(ToolPause);
    expect(readCalendar(state).map((event) => event.title)).toEqual(["Call"]);
  });

  it("says nothing was added on a decline or a dismissed form", async () => {
    expect(await calendarAddEvent.run({ title: "X" }, answering([{ action: "decline" }]).ctx)).toMatch(
      /declined/,
    );
    expect(await calendarAddEvent.run({ title: "X" }, answering([{ action: "cancel" }]).ctx)).toMatch(
      /dismissed/,
    );
  });

  it("reads a stored value it cannot parse as an empty calendar", () => {
    const state = calendarState();
    state.put("events", "- 2026-12-01T10:00 · 60 min · Standup");
    expect(readCalendar(state)).toEqual([]);
  });

  it("finds overlaps by minute", () => {
    const events = [{ start: "2026-12-01T10:00", minutes: 60, title: "Standup" }];
    expect(firstOverlap(events, { start: "2026-12-01T11:00", minutes: 30, title: "A" })).toBeNull();
    expect(firstOverlap(events, { start: "2026-12-01T10:59", minutes: 5, title: "B" })?.title).toBe(
      "Standup",
    );
    expect(firstOverlap(events, { start: "2026-12-01T09:30", minutes: 30, title: "C" })).toBeNull();
  });
});

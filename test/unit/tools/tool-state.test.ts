// A tool's own storage: what one tool keeps, another never sees, and values round-trip as JSON.
import { describe, expect, it } from "vitest";
import { MemoryToolStateStore, toolStateOf } from "../../../src/tools/tool-state";

describe("a tool's own state", () => {
  it("keeps each tool's keys apart from every other tool's", () => {
    const store = new MemoryToolStateStore();
    const calendar = toolStateOf(store, "calendar_add_event");
    const other = toolStateOf(store, "other_tool");
    calendar.put("events", [{ title: "Dentist" }]);
    expect(other.get("events")).toBeUndefined();
    expect(calendar.get("events")).toEqual([{ title: "Dentist" }]);
    other.put("events", 1);
    expect(calendar.get("events")).toEqual([{ title: "Dentist" }]);
  });

  it("stores a copy, as the session's SQLite does, and deletes a key once", () => {
    const state = toolStateOf(new MemoryToolStateStore(), "t");
    const value = { list: [1] };
    state.put("k", value);
    value.list.push(2);
    expect(state.get("k")).toEqual({ list: [1] });
    expect(state.delete("k")).toBe(true);
    expect(state.delete("k")).toBe(false);
    expect(state.get("k")).toBeUndefined();
  });
});

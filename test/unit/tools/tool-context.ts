// A ToolContext for tool tests: in-memory notes, a fixed clock, and a fetch that fails loudly
// unless a test supplies its own, so no test can reach the network by accident.
import type { ToolContext } from "../../../src/tools/define-tool";
import { MemoryToolStateStore, toolStateOf } from "../../../src/tools/tool-state";
import { MemoryNotes } from "../../helpers/memory-notes";

/** 2026-03-14T15:09:26.535Z */
export const FIXED_NOW = Date.UTC(2026, 2, 14, 15, 9, 26, 535);

export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    notes: new MemoryNotes(() => FIXED_NOW),
    state: toolStateOf(new MemoryToolStateStore(), "tool_under_test"),
    fetch: async (input) => {
      throw new Error(`unexpected network access in a test: ${String(input)}`);
    },
    now: () => FIXED_NOW,
    toolCallId: "toolu_test",
    elicit: async () => {
      throw new Error("unexpected form in a test that does not answer one");
    },
    ...overrides,
  };
}

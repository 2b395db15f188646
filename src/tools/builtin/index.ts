// The tools every session offers, in the order the model sees them.
import type { ToolDefinition } from "../define-tool";
import { calendarAddEvent } from "./calendar-add-event";
import { currentTime } from "./current-time";
import { fetchUrl } from "./fetch-url";
import { notesRead } from "./notes-read";
import { notesWrite } from "./notes-write";

/** Built-in tools; pass to `createToolRegistry`. */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  currentTime,
  notesRead,
  notesWrite,
  calendarAddEvent,
  fetchUrl,
];

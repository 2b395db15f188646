// Calls with the level and effects Parley's assessment must give them: shell commands (through
// wrappers, nested scripts and pipes), file tools, fetches and MCP tools.
import { SHELL_FILE_CALLS } from "./shell-file-calls";
import { SHELL_SYSTEM_CALLS } from "./shell-system-calls";
import type { TableRow } from "./table-rows";
import { TOOL_CALLS } from "./tool-calls";

export const CALL_TABLE: readonly TableRow[] = [...SHELL_FILE_CALLS, ...SHELL_SYSTEM_CALLS, ...TOOL_CALLS];

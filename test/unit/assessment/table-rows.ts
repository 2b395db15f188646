// Helpers and types of the assessment's call table.
import type { AssessedCall } from "../../../src/assessment/assess-call";
import type { AssessmentLevel, EffectKind } from "../../../src/assessment/assessment";

export interface AssessedRow {
  call: AssessedCall;
  level: AssessmentLevel;
  /** Effect kinds the assessment must name. */
  kinds: EffectKind[];
  /** Words one of its effects must hold. */
  says?: string;
}

export type TableRow = [string, AssessedRow];

export const CWD = "/home/ana/project";

export const bash = (command: string, cwd: string | null = CWD): AssessedCall => ({
  toolName: "Bash",
  input: { command },
  cwd,
});

export const tool = (
  toolName: string,
  input: Record<string, unknown>,
  cwd: string | null = CWD,
): AssessedCall => ({
  toolName,
  input,
  cwd,
});

export const mcp = (annotations?: Record<string, unknown>, trusted = true): AssessedCall => ({
  toolName: "mcp_docs_search",
  input: { query: "x" },
  cwd: null,
  mcp: { server: "docs", tool: "search", trusted, ...(annotations ? { annotations } : {}) },
});

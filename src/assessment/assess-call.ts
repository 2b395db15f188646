// Parley's assessment of one call, from the call itself: the tool, its input, the working folder
// the bridge reported, and for an MCP tool the annotations its server listed. Each reader finds
// effects; the call's level is the highest of theirs, and what Parley cannot read is medium.
import type { Assessment, AssessmentLevel, Finding } from "./assessment";
import { clip, finding, higher, MAX_EFFECTS, MAX_SUMMARY_CHARS } from "./assessment";
import { fetchEffects, isFetchTool } from "./fetch-effects";
import { fileEffects, isFileTool } from "./file-effects";
import { type McpOrigin, mcpEffects } from "./mcp-effects";
import { shellEffects } from "./shell-effects";

/** The call as Parley knows it, never the agent's words about it. */
export interface AssessedCall {
  toolName: string;
  input: unknown;
  /** The agent's working folder as its bridge reported it; null for none (Parley's own loop). */
  cwd: string | null;
  /** For a tool Parley lists from an MCP server: its origin and annotations. */
  mcp?: McpOrigin | null | undefined;
  /** For one of Parley's own tools: its declared risk class. */
  ownRisk?: "read" | "edit" | "network" | "execute" | undefined;
}

const SUMMARY_EFFECTS = 3;

/** Assesses `call`. Run `loadShellReader()` first: a Bash command is read with the shell parser. */
export function assessCall(call: AssessedCall): Assessment {
  return combine(findingsOf(call));
}

function findingsOf({ toolName, input, cwd, mcp, ownRisk }: AssessedCall): Finding[] {
  if (mcp) return mcpEffects(toolName, mcp);
  const command = shellCommandOf(toolName, input);
  if (command !== undefined) {
    if (command === null)
      return [finding("unread", "medium", `${toolName} names no command Parley can read`)];
    return shellEffects(command, cwd);
  }
  if (isFileTool(toolName)) return fileEffects(toolName, input, cwd);
  if (isFetchTool(toolName)) return fetchEffects(input);
  if (toolName.startsWith("mcp__")) return mcpEffects(toolName, null);
  if (ownRisk) return [ownToolFinding(toolName, ownRisk)];
  return [finding("unread", "medium", `Parley does not know what ${toolName} does`)];
}

/**
 * The command a shell tool runs: Claude Code's Bash, and an ACP agent's execute call that carries
 * one; null when such a tool names none, undefined for any other tool.
 */
function shellCommandOf(toolName: string, input: unknown): string | null | undefined {
  const record = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  if (toolName === "Bash" || toolName === "acp:execute")
    return typeof record.command === "string" ? record.command : null;
  return undefined;
}

/** Parley's own tools: their declared class says what they do inside Parley. */
function ownToolFinding(toolName: string, risk: NonNullable<AssessedCall["ownRisk"]>): Finding {
  switch (risk) {
    case "read":
      return finding("read", "low", `reads with Parley's own ${toolName}`);
    case "edit":
      return finding("write", "medium", `changes data with Parley's own ${toolName}`);
    case "network":
      return finding("network", "medium", `reaches the network with Parley's own ${toolName}`);
    case "execute":
      return finding("run", "medium", `runs Parley's own ${toolName}`);
  }
}

/** The highest level of the findings, the riskiest first, their words as one line. */
export function combine(findings: readonly Finding[]): Assessment {
  const seen = new Set<string>();
  const unique = findings.filter((found) => {
    const key = `${found.kind}\u0000${found.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const rank = (level: AssessmentLevel) => (level === "high" ? 0 : level === "medium" ? 1 : 2);
  const ordered = [...unique].sort((a, b) => rank(a.level) - rank(b.level));
  const level = ordered.reduce<AssessmentLevel>((most, found) => higher(most, found.level), "low");
  const shown = ordered.slice(0, SUMMARY_EFFECTS).map((found) => found.detail);
  const more = ordered.length - shown.length;
  const line = `${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
  return {
    level,
    summary:
      line === ""
        ? "Parley found nothing this call does"
        : clip(`${line.charAt(0).toUpperCase()}${line.slice(1)}`, MAX_SUMMARY_CHARS),
    effects: ordered.slice(0, MAX_EFFECTS).map(({ kind, detail }) => ({ kind, detail })),
  };
}

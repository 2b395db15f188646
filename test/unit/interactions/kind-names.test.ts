// A kind lives in its own files plus one line in each registry. This lists every other file whose
// code names a kind (or a seed event or command that only one kind uses) and fails when a new one
// appears; a file that stops naming one must leave the list too, so it only ever shrinks.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["src", "web/src", "client", "bin"];

/** The files each kind owns, and the registries that list every kind by name. */
const OWNED = [
  /^src\/interactions\/kinds\//,
  /^web\/src\/ui\/(question|approval|form|plan|url)-card\.ts$/,
  /^bin\/(question|approval|form|url)-prompt\.ts$/,
  /^web\/src\/ui\/interaction-renderers\.ts$/,
  /^bin\/card-prompts\.ts$/,
];

// `plan`, `form` and `url` are also a permission mode and MCP's elicitation modes, so only the
// names that mean nothing but their kind are searched: the seed kinds' names, events and commands.
const NAMES = [
  /(["'`])question\1/,
  /(["'`])approval\1/,
  /(["'`])rating\1/,
  /\bquestion_prompt\b/,
  /\bapproval_required\b/,
  /\bsubmit_answers\b/,
  /(["'`])approve\1/,
  /(["'`])deny\1/,
];

/** Where the seed kinds are still named outside their files, each for a reason of its own. */
const KNOWN: Record<string, string> = {
  "src/protocol/seed-names.ts": "the one module of the seed kinds' older events, commands and routes",
  "src/protocol/deadline-policy.ts":
    "its `deny` is what a deadline does (the seeds' default), not the command",
  "src/agent/permission-policy.ts":
    "its `deny` is the policy's own behavior (Claude Code's word), not the command",
  "src/agent/tool-phase.ts": "opens an approval before a tool runs, and records the policy's deny",
  "src/agent/batch-decision.ts": "approve all / deny all decides approval cards",
  "web/src/ui/batch-bar.ts": "the page's approve all / deny all bar",
  "src/agent/edited-input.ts": "runs the arguments a person edited on an approval",
  "client/external-agent.ts": "an external agent names the kind of card it opens",
  "client/claude-permissions.ts": "maps Claude Code's permission requests onto the seed kinds",
  "client/agent-sdk.ts": "maps the Agent SDK's canUseTool onto an approval",
  "bin/parley-mcp.ts": "maps Claude Code's permission-prompt tool onto the seed kinds",
  "bin/parley-hook.ts": "maps Claude Code's permission hook onto an approval",
  "bin/acp/acp-permissions.ts": "maps an ACP agent's permission request onto an approval",
  "client/claude-approve-tool.ts": "names the MCP tool Claude Code calls (`mcp__parley__approve`)",
  "src/router/mcp-remote-ask.ts": "answers Claude Code's permission-prompt tool with its own `deny`",
  "src/grants/grant-decision.ts": "its `deny` is a grant's effect (Claude Code's word), not the command",
  "src/grants/rule-match.ts": "its `deny` is a grant's effect (Claude Code's word), not the command",
  "src/grants/approvals-needed.ts":
    "reads a rule that asks for more approvals as a `deny` (Claude Code's word) reads it, not the command",
  "src/protocol/grants.ts": "its `deny` is a grant's effect (Claude Code's word), not the command",
  "src/agent/ports.ts": "a grant's effect, `allow` or `deny`, decides approvals",
  "src/agent/resolve-interaction.ts": "resolves an approval as a grant decided it, approved or denied",
  "src/agent/external-interaction.ts": "a grant decides an agent's approval before its card opens",
  "bin/grant-steps.ts": "an approval's allow … for, in the terminal: approves and makes a grant",
  "web/src/ui/grant-form.ts": "an approval card's allow … for: approves and makes a grant",
  "src/session/session-grants.ts":
    "asks the grants about an agent's approval, and keeps one made from its answer",
};

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (/\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield full;
  }
}

/** The code of a file without its comments, which may name anything. */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join("\n");
}

function namingFiles(): string[] {
  return ROOTS.flatMap((root) => [...files(root)])
    .filter((file) => !OWNED.some((owned) => owned.test(file)))
    .filter((file) => {
      const text = code(file);
      return NAMES.some((name) => name.test(text));
    })
    .sort();
}

describe("kind names outside their kinds", () => {
  it("appear only in the files known to name them", () => {
    expect(namingFiles().filter((file) => !(file in KNOWN))).toEqual([]);
  });

  it("are listed only while a file still names one, so the list shrinks as they go", () => {
    const naming = new Set(namingFiles());
    expect(Object.keys(KNOWN).filter((file) => !naming.has(file))).toEqual([]);
  });
});

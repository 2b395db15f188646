// Finds where code outside a kind's own files names that kind: its name quoted, an identifier one of
// its own modules exports, or an import of one of its modules. Works on any tree, so the guard that
// runs it over the repository is itself tested on a small tree made for the purpose.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const KIND_NAMES = ["question", "form", "approval", "plan", "url"] as const;
export type KindName = (typeof KIND_NAMES)[number];

/** The folders searched, relative to the tree's root. */
export const ROOTS = ["src", "web/src", "client", "bin"];

/**
 * Files that list every kind by name (the registries) and helpers every kind shares: they are neither
 * a kind's own file nor outside code.
 */
const REGISTRIES = new Set([
  "src/interactions/kinds/index.ts",
  "src/interactions/kinds/names.ts",
  "src/interactions/kinds/chat-view.ts",
  "src/interactions/kinds/chat-views.ts",
  "web/src/ui/transcript/interaction-renderers.ts",
  "bin/card-prompts.ts",
  "bin/card-prompt.ts",
]);

/**
 * Files a kind owns beyond the three that carry its name (`src/interactions/kinds/<kind>*.ts`, the
 * page's `web/src/ui/kinds/<kind>-card.ts`, the terminal's `bin/<kind>-prompt.ts`).
 */
const EXTRA_OWNED: Record<string, KindName> = {
  // An ACP agent's approval: its details on the card and the answers ACP can carry back.
  "src/interactions/kinds/acp-details.ts": "approval",
  "web/src/ui/approval/acp-details.ts": "approval",
  // An approval's "allow … for", which approves and makes a grant, on the page and in the terminal.
  "web/src/ui/approval/grant-form.ts": "approval",
  "bin/grant-steps.ts": "approval",
  // An approval's edited arguments, and an MCP tool's origin, on the page.
  "web/src/ui/approval/input-editor.ts": "approval",
  "web/src/ui/approval/mcp-origin.ts": "approval",
};

/**
 * The seed kinds' older events and commands, which mean nothing but their kind. `approve` and `deny`
 * are also a grant's effect and the policy's verdict (Claude Code's words).
 */
const SEED_WORDS: Record<string, { kind: KindName; pattern: RegExp }> = {
  question_prompt: { kind: "question", pattern: /\bquestion_prompt\b/ },
  submit_answers: { kind: "question", pattern: /\bsubmit_answers\b/ },
  approval_required: { kind: "approval", pattern: /\bapproval_required\b/ },
  '"approve"': { kind: "approval", pattern: /(["'`])approve\1/ },
  '"deny"': { kind: "approval", pattern: /(["'`])deny\1/ },
};

/** The kind that owns `file`, or null for a registry or outside code. */
export function ownerOf(file: string): KindName | null {
  if (REGISTRIES.has(file)) return null;
  const extra = EXTRA_OWNED[file];
  if (extra) return extra;
  const base = path.posix.basename(file, ".ts");
  const dir = path.posix.dirname(file);
  for (const kind of KIND_NAMES) {
    if (dir === "src/interactions/kinds" && (base === kind || base.startsWith(`${kind}-`))) return kind;
    if (dir === "web/src/ui/kinds" && base === `${kind}-card`) return kind;
    if (dir === "bin" && base === `${kind}-prompt`) return kind;
  }
  return null;
}

function* files(root: string, dir: string): Generator<string> {
  const full = path.join(root, dir);
  if (!existsSync(full)) return;
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(root, relative);
    else if (/\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield relative;
  }
}

/** The code of a file without its comments, which may name anything. */
function code(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .map((line) => line.replace(/\s\/\/.*$/, ""))
    .join("\n");
}

/** The names a kind's own module exports, which only that kind's files (and registries) may use. */
function exportedNames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(
    /^export (?:declare )?(?:async |abstract )?(?:const|let|function\*?|class|type|interface|enum) (\w+)/gm,
  ))
    names.add(match[1]!);
  for (const match of text.matchAll(/^export (?:type )?\{([^}]*)\}(?! from)/gm))
    for (const part of match[1]!.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .at(-1)
        ?.replace(/^type\s+/, "");
      if (name) names.add(name);
    }
  return [...names];
}

/** Import specifiers of a file (static, re-exports, and dynamic `import("…")`). */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
}

function resolveImport(file: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return target.endsWith(".ts") ? target : `${target}.ts`;
}

/** Why one outside file names a kind: each mention as `kind: how`. */
export type Mentions = Record<string, string[]>;

/** Every outside file under `root` that names a kind, with what names it. */
export function kindMentions(root: string): Mentions {
  const all = ROOTS.flatMap((dir) => [...files(root, dir)]);
  const identifiers = new Map<string, KindName>();
  for (const file of all) {
    const owner = ownerOf(file);
    if (owner === null) continue;
    for (const name of exportedNames(readFileSync(path.join(root, file), "utf8")))
      identifiers.set(name, owner);
  }
  const mentions: Mentions = {};
  for (const file of all) {
    if (ownerOf(file) !== null || REGISTRIES.has(file)) continue;
    const text = code(readFileSync(path.join(root, file), "utf8"));
    const found = new Set<string>();
    for (const kind of KIND_NAMES)
      if (new RegExp(`(["'\`])${kind}\\1`).test(text)) found.add(`${kind}: quoted name`);
    for (const [word, { kind, pattern }] of Object.entries(SEED_WORDS))
      if (pattern.test(text)) found.add(`${kind}: ${word}`);
    for (const word of new Set(text.match(/\b[A-Za-z_$][\w$]*\b/g) ?? [])) {
      const kind = identifiers.get(word);
      if (kind) found.add(`${kind}: ${word}`);
    }
    for (const specifier of importsOf(text)) {
      const target = resolveImport(file, specifier);
      const kind = target === null ? null : ownerOf(target);
      if (kind) found.add(`${kind}: imports ${target}`);
    }
    if (found.size > 0) mentions[file] = [...found].sort();
  }
  return mentions;
}

// What a rule reads from a tool's input: the fields each tool has (Claude Code's tool schemas,
// sdk-tools.d.ts, and Parley's own fetch_url), and the paths a call touches. An allow covers no
// call with a field it does not know, since that field might name a path or change what runs.

/** The input fields of the tools whose rules take a specifier. */
const KNOWN_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Bash: ["command", "description", "timeout", "run_in_background", "dangerouslyDisableSandbox"],
  Read: ["file_path", "offset", "limit", "pages", "allow_large"],
  Edit: ["file_path", "old_string", "new_string", "replace_all"],
  MultiEdit: ["file_path", "edits"],
  Write: ["file_path", "content"],
  NotebookEdit: ["notebook_path", "cell_id", "new_source", "cell_type", "edit_mode"],
  NotebookRead: ["notebook_path", "cell_id"],
  Grep: [
    "pattern",
    "path",
    "glob",
    "output_mode",
    "-B",
    "-A",
    "-C",
    "context",
    "-n",
    "-i",
    "-o",
    "type",
    "head_limit",
    "offset",
    "multiline",
  ],
  Glob: ["pattern", "path"],
  LS: ["path", "ignore"],
  WebFetch: ["url", "prompt", "offset"],
  fetch_url: ["url", "maxBytes"],
};

/** Whether every field of `input` is one the tool is known to take (a tool not listed: yes). */
export function knowsInput(toolName: string, input: unknown): boolean {
  const known = KNOWN_FIELDS[toolName];
  if (!known) return true;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return false;
  return Object.keys(input).every((name) => known.includes(name));
}

/** Tools that search a folder, the working folder when no path is given. */
const SEARCH_TOOLS: ReadonlySet<string> = new Set(["Grep", "Glob", "LS"]);

/**
 * The paths a call touches, `\` read as a separator; [] when it names none, null when it cannot
 * be told (a search with neither a path nor a working folder, a Glob pattern under `~`).
 */
export function pathsOf(toolName: string, input: unknown, cwd: string | null): string[] | null {
  const text = (name: string) => {
    const value =
      typeof input === "object" && input !== null ? (input as Record<string, unknown>)[name] : null;
    return typeof value === "string" ? value.replaceAll("\\", "/") : null;
  };
  if (!SEARCH_TOOLS.has(toolName)) {
    const path = text("file_path") ?? text("notebook_path") ?? text("path");
    return path === null ? [] : [path];
  }
  const base = text("path") ?? cwd;
  if (base === null) return null;
  const pattern = toolName === "Glob" ? text("pattern") : null;
  if (pattern === null) return [base];
  if (pattern.startsWith("~")) return null;
  // A Glob pattern may itself climb out of its folder (`../../etc/*`) or start anywhere (`/etc/*`).
  return [base, pattern.startsWith("/") ? pattern : `${base}/${pattern}`];
}

// How a file path meets a Read/Edit/Write rule: gitignore-style globs (`*` within a folder, `**`
// across folders), after resolving `.` and `..`, so `src/../.env` is not under `src/`.

/** Home folders `~/` stands for: the agent's machine is not known, so any user's home is. */
const HOME = "(?:/home/[^/]+|/Users/[^/]+|/root)";

/**
 * Whether `pattern` covers `path`. `//abs` and `/abs` are absolute, `~/x` is under a home folder,
 * anything else is relative to `cwd` (when the call names one) or matches a relative path as given.
 * A pattern without wildcards covers the path itself and everything under it.
 */
export function pathMatches(pattern: string, path: string, cwd: string | null): boolean {
  if (path.includes("\0")) return false;
  const target = normalize(path.startsWith("/") || !cwd ? path : `${cwd}/${path}`);
  if (target === null) return false;
  const { prefix, rest, absolute } = anchor(pattern, cwd);
  if (absolute !== target.startsWith("/")) return false;
  const globbed = /[*?]/.test(rest) ? globToRegExp(rest) : `${escapeRegExp(rest)}(?:/.*)?`;
  return new RegExp(`^${prefix}${globbed}$`, "s").test(target);
}

function anchor(pattern: string, cwd: string | null): { prefix: string; rest: string; absolute: boolean } {
  if (pattern.startsWith("//")) return { prefix: "", rest: pattern.slice(1), absolute: true };
  if (pattern.startsWith("/")) return { prefix: "", rest: pattern, absolute: true };
  if (pattern.startsWith("~/")) return { prefix: HOME, rest: pattern.slice(1), absolute: true };
  const relative = pattern.replace(/^(\.\/)+/, "");
  const base = cwd ? normalize(cwd) : null;
  if (base?.startsWith("/"))
    return { prefix: escapeRegExp(base === "/" ? "" : base), rest: `/${relative}`, absolute: true };
  return { prefix: "", rest: relative, absolute: false };
}

/** `a/./b/../c` → `a/c`; null when `..` climbs above the start of a relative path. */
function normalize(path: string): string | null {
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) {
        if (!absolute) return null;
        continue;
      }
      out.pop();
    } else out.push(segment);
  }
  return `${absolute ? "/" : ""}${out.join("/")}`;
}

function globToRegExp(glob: string): string {
  let source = "";
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === "*" && glob[i + 1] === "*") {
      // `**/` is any number of folders (none included); a final `**` is anything below.
      if (glob[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else if (source.endsWith("/") && i + 2 === glob.length) {
        // A final `/**` also covers the folder itself (a search of `src` under `src/**`).
        source = `${source.slice(0, -1)}(?:/.*)?`;
        i += 1;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += escapeRegExp(char);
  }
  return source;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// git's subcommands: reading the repository is low; changing it is medium; rewriting history,
// discarding work and force-pushing are high; clone, fetch, pull and push reach a remote.
import { type Finding, finding } from "./assessment";
import { networkFinding } from "./fetch-effects";

type Words = readonly (string | null)[];

const READS: ReadonlySet<string> = new Set([
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "grep",
  "ls-files",
  "ls-tree",
  "rev-parse",
  "describe",
  "shortlog",
  "cat-file",
  "whatchanged",
  "help",
  "version",
  "rev-list",
  "name-rev",
  "for-each-ref",
  "show-ref",
  "merge-base",
  "count-objects",
  "check-ignore",
  "annotate",
  "var",
]);

const REWRITES: Readonly<Record<string, string>> = {
  rebase: "rewrites the branch's history (rebase)",
  "filter-branch": "rewrites the repository's history (filter-branch)",
  "filter-repo": "rewrites the repository's history (filter-repo)",
  replace: "replaces commits in the history (replace)",
  "update-ref": "moves or deletes a ref directly (update-ref)",
};

/** The findings of `git <args>`, global options already gone; null when a global option leads. */
export function gitEffects(args: Words): Finding[] | null {
  const sub = args[0];
  if (sub === undefined) return [finding("run", "low", "runs git with no command")];
  if (sub === null) return [finding("unread", "medium", "runs a git command known only when it runs")];
  if (sub.startsWith("-"))
    return sub === "--version" || sub === "--help"
      ? [finding("run", "low", "prints git's version or help")]
      : null;
  const rest = args.slice(1).filter((word): word is string => word !== null);
  const has = (...flags: string[]) => rest.some((word) => flags.includes(word));
  if (READS.has(sub)) return [finding("read", "low", `reads the repository (git ${sub})`)];
  if (sub === "push") return pushEffects(rest);
  const rewrite = REWRITES[sub];
  if (rewrite) return [finding("git-rewrite", "high", rewrite)];
  if (sub === "commit" && has("--amend"))
    return [finding("git-rewrite", "high", "rewrites the last commit (commit --amend)")];
  if (sub === "reset") {
    if (has("--hard", "--merge", "--keep"))
      return [
        finding("git-rewrite", "high", "moves the branch and discards uncommitted changes (reset --hard)"),
      ];
    return [finding("git-rewrite", "medium", "moves the branch (reset)")];
  }
  if (sub === "reflog" && rest[0] === "expire")
    return [finding("git-rewrite", "high", "expires the reflog, losing the way back")];
  if (sub === "gc" && rest.some((word) => word.startsWith("--prune")))
    return [finding("git-rewrite", "high", "prunes unreachable commits for good (gc --prune)")];
  if (sub === "clean" && rest.some((word) => /^-[a-zA-Z]*f/.test(word) || word === "--force"))
    return [
      finding(
        "delete",
        rest.some((word) => /^-[a-zA-Z]*x/.test(word)) ? "high" : "medium",
        "deletes untracked files in the repository (git clean)",
      ),
    ];
  if (
    (sub === "checkout" || sub === "restore") &&
    (has(".", "--", "--worktree", "-f", "--force") || sub === "restore")
  )
    return [finding("delete", "medium", `discards uncommitted changes (git ${sub})`)];
  if (sub === "stash" && (rest[0] === "drop" || rest[0] === "clear"))
    return [finding("delete", "medium", `deletes stashed changes (git stash ${rest[0]})`)];
  if (sub === "branch" && has("-D", "--delete", "-d", "-f", "--force", "-M"))
    return [
      finding(
        "git-rewrite",
        has("-D", "-f", "--force", "-M") ? "high" : "medium",
        "deletes or moves a branch (git branch)",
      ),
    ];
  if (sub === "branch" || sub === "tag" || sub === "remote" || sub === "config" || sub === "stash") {
    if (
      rest.filter((word) => !word.startsWith("-")).length === 0 ||
      has("-l", "--list", "-v", "-a", "--get", "--list", "list", "show")
    )
      return [finding("read", "low", `reads the repository (git ${sub})`)];
  }
  if (sub === "clone") {
    const url = rest.find((word) => !word.startsWith("-"));
    return [networkFinding(url ?? "a remote", "clones from")];
  }
  if (sub === "fetch" || sub === "pull" || sub === "ls-remote")
    return [
      finding(
        "network",
        "medium",
        `${sub === "pull" ? "pulls from" : "fetches from"} ${remoteOf(rest)}${sub === "pull" ? " and merges into the working tree" : ""}`,
      ),
    ];
  if (sub === "config" && has("--global", "--system"))
    return [finding("write", "high", "changes git's configuration for every repository")];
  return [finding("write", "medium", `changes the repository (git ${sub})`)];
}

function pushEffects(rest: readonly string[]): Finding[] {
  const remote = remoteOf(rest);
  const force = rest.some(
    (word) =>
      word === "--force" ||
      word === "--mirror" ||
      word.startsWith("--force-with-lease") ||
      /^-[a-zA-Z]*f/.test(word) ||
      /^\+/.test(word),
  );
  if (force) return [finding("git-push", "high", `force-pushes to ${remote}, rewriting its history`)];
  if (rest.some((word) => word === "--delete" || word === "-d" || /^:/.test(word) || word === "--prune"))
    return [finding("git-push", "high", `deletes branches or tags on ${remote}`)];
  return [finding("git-push", "medium", `pushes commits to ${remote}`)];
}

function remoteOf(rest: readonly string[]): string {
  const remote = rest.find((word) => !word.startsWith("-") && !word.startsWith("+") && !word.startsWith(":"));
  return remote === undefined ? "the default remote" : remote;
}

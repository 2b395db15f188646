// Where a path a call names lies: inside the working folder or outside it, and whether it holds
// secrets (`.env`, `~/.ssh`, `~/.aws` …) or is a dotfile that runs code (`~/.bashrc`, `.git/hooks`).

/** Where a path lies, and the words a summary uses for it. */
export interface PathPlace {
  /** The path as the call names it. */
  path: string | null;
  /** `inside` the working folder; `outside` it; `unknown` when the path is known only when it runs. */
  where: "inside" | "outside" | "unknown";
  /** What secret it holds ("SSH keys"), or null. */
  secret: string | null;
  /** What code it would run if written ("a shell's start-up file"), or null. */
  runsCode: string | null;
  /** `build/out.txt, inside the working folder`. */
  words: string;
}

const SECRETS: readonly [RegExp, string][] = [
  [/(^|\/)\.env(\.[^/]*)?$/, "environment secrets"],
  [/(^|\/)\.ssh(\/|$)/, "SSH keys"],
  [/(^|\/)\.aws(\/|$)/, "AWS credentials"],
  [/(^|\/)\.gnupg(\/|$)/, "GnuPG keys"],
  [/(^|\/)\.kube\/config$/, "Kubernetes credentials"],
  [/(^|\/)\.docker\/config\.json$/, "Docker credentials"],
  [/(^|\/)\.config\/gcloud(\/|$)/, "Google Cloud credentials"],
  [/(^|\/)\.azure(\/|$)/, "Azure credentials"],
  [/(^|\/)\.config\/gh\/hosts\.yml$/, "GitHub tokens"],
  [/(^|\/)\.(netrc|git-credentials|npmrc|pypirc|pgpass)$/, "stored passwords or tokens"],
  [/(^|\/)id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/, "SSH keys"],
  [/\.(pem|key|p12|pfx|keystore|jks)$/, "a private key"],
  [/^\/etc\/(shadow|gshadow|sudoers)(\/|$)/, "the system's passwords"],
  [/(^|\/)credentials(\.json)?$/, "credentials"],
  [/(^|\/)secrets?(\.[a-z]+)?$/i, "secrets"],
];

const RUNS_CODE: readonly [RegExp, string][] = [
  [
    /(^|\/)\.(bashrc|bash_profile|bash_login|profile|zshrc|zshenv|zprofile|zlogin|cshrc|tcshrc)$/,
    "a shell's start-up file",
  ],
  [/(^|\/)\.config\/fish(\/|$)/, "a shell's start-up file"],
  [/(^|\/)\.git\/(hooks(\/|$)|config$)/, "git hooks or config (run by git)"],
  [/(^|\/)\.ssh\/(authorized_keys|config)$/, "who may log in, or how SSH connects"],
  [/^\/etc\//, "the system's configuration"],
  [/(^|\/)(crontab|cron\.d)(\/|$)|^\/var\/spool\/cron/, "scheduled jobs"],
  [/(^|\/)(\.config\/autostart|Library\/LaunchAgents|\.config\/systemd)(\/|$)/, "programs started at login"],
];

/** Where `path` lies for a call whose working folder is `cwd` (null: none, relative paths inside). */
export function placeOf(path: string | null, cwd: string | null): PathPlace {
  // `{}` is each path `find -exec` or `xargs -I{}` finds: known only when it runs.
  if (path === null || path === "{}")
    return {
      path,
      where: "unknown",
      secret: null,
      runsCode: null,
      words: `${path ?? "a path"} known only when it runs`,
    };
  const resolved = resolve(path, cwd);
  const secret = firstMatch(SECRETS, resolved ?? path);
  const runsCode = firstMatch(RUNS_CODE, resolved ?? path);
  const where = resolved === null ? "outside" : inside(resolved, cwd) ? "inside" : "outside";
  const folder =
    cwd === null
      ? where === "inside"
        ? "no working folder, taken as inside"
        : "outside (no working folder)"
      : `${where} the working folder`;
  return { path, where, secret, runsCode, words: `${path}, ${folder}` };
}

/** The absolute path (or, with no working folder, the relative one); null when it climbs above it. */
function resolve(path: string, cwd: string | null): string | null {
  const home = path === "~" || path.startsWith("~/") || /^~[A-Za-z0-9_.-]+(\/|$)/.test(path);
  const spelled = home ? `/home/~${path.slice(1)}` : path;
  const full = spelled.startsWith("/") || cwd === null ? spelled : `${cwd}/${spelled}`;
  const out: string[] = [];
  for (const segment of full.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") out.push(segment);
    else if (out.length > 0) out.pop();
    else if (!full.startsWith("/")) return null;
  }
  return `${full.startsWith("/") ? "/" : ""}${out.join("/")}`;
}

function inside(resolved: string, cwd: string | null): boolean {
  if (cwd === null) return !resolved.startsWith("/");
  const base = cwd.replace(/\/+$/, "") || "/";
  return base === "/" || resolved === base || resolved.startsWith(`${base}/`);
}

function firstMatch(table: readonly [RegExp, string][], path: string): string | null {
  for (const [pattern, words] of table) if (pattern.test(path)) return words;
  return null;
}

// Package managers: an install fetches code and, for most, runs its install scripts — high, unless
// the line turns scripts off (`--ignore-scripts`). Running a project's own scripts is medium.
import { type Finding, finding } from "./assessment";

type Words = readonly (string | null)[];

/** Subcommands that install, per manager. */
const INSTALLS: Readonly<Record<string, readonly string[]>> = {
  npm: ["install", "i", "ci", "add", "update", "up", "upgrade", "isntall", "in"],
  pnpm: ["install", "i", "add", "update", "up"],
  yarn: ["install", "add", "up", "upgrade"],
  bun: ["install", "i", "add", "update"],
  pip: ["install"],
  pip3: ["install"],
  pipx: ["install"],
  uv: ["add", "sync", "pip"],
  poetry: ["add", "install"],
  gem: ["install"],
  cargo: ["install"],
  go: ["install", "get"],
  brew: ["install", "reinstall", "upgrade"],
  apt: ["install", "upgrade", "full-upgrade"],
  "apt-get": ["install", "upgrade", "dist-upgrade"],
  dnf: ["install", "upgrade"],
  yum: ["install", "update"],
  zypper: ["install", "in"],
  apk: ["add"],
  snap: ["install"],
  composer: ["install", "require", "update"],
  bundle: ["install", "add"],
  conda: ["install"],
};

/** Managers that run a package fetched from a registry (`npx x`, `pnpm dlx x`). */
const RUNNERS: ReadonlySet<string> = new Set(["npx", "pnpx", "bunx", "uvx"]);
const SCRIPT_RUNNERS: ReadonlySet<string> = new Set(["npm", "pnpm", "yarn", "bun"]);

/** The findings of a package manager's invocation; null when `name` is not one. */
export function packageEffects(name: string, args: Words): Finding[] | null {
  const words = args.filter((word): word is string => word !== null);
  const sub = words.find((word) => !word.startsWith("-"));
  if (
    RUNNERS.has(name) ||
    (sub === "dlx" && SCRIPT_RUNNERS.has(name)) ||
    (name === "pipx" && sub === "run")
  ) {
    const runs =
      words.filter((word) => !word.startsWith("-") && word !== "dlx" && word !== "run")[0] ?? "a package";
    return [finding("install", "high", `downloads and runs ${runs} from a package registry`)];
  }
  if (name === "pacman" && words.some((word) => /^-S/.test(word)))
    return [finding("install", "high", "installs system packages with pacman")];
  const installs = INSTALLS[name];
  if (!installs) return null;
  const yarnBare = name === "yarn" && sub === undefined;
  if (yarnBare || (sub !== undefined && installs.includes(sub))) {
    const packages = words.filter((word) => !word.startsWith("-") && word !== sub).slice(0, 4);
    const what = packages.length > 0 ? packages.join(", ") : `the project's ${name} dependencies`;
    if (words.includes("--ignore-scripts"))
      return [finding("install", "medium", `installs ${what} with ${name}, scripts turned off`)];
    return [finding("install", "high", `installs ${what} with ${name}, running their install scripts`)];
  }
  if (SCRIPT_RUNNERS.has(name) && sub !== undefined) {
    if (["ls", "list", "outdated", "view", "info", "why", "audit", "--version", "help"].includes(sub))
      return [finding("run", "low", `lists packages with ${name} ${sub}`)];
    return [finding("run", "medium", `runs the project's ${sub} script with ${name}`)];
  }
  return [finding("run", "medium", `runs ${name}${sub ? ` ${sub}` : ""}`)];
}

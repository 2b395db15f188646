// What a shell command does, read from the one parse grants use (src/grants/shell-reading.ts):
// every program it may run, wrappers and nested scripts followed, each by what it does to files,
// the network, packages and processes, plus the files its redirections write or read.
import { type Invocation, invocationsOf } from "../grants/command-invocations";
import { SHELLS } from "../grants/command-wrappers";
import { readShell } from "../grants/shell-reading";
import { type Finding, finding } from "./assessment";
import { hostOf, networkFinding } from "./fetch-effects";
import { deleteFinding, readFinding, writeFinding } from "./file-effects";
import { gitEffects } from "./git-effects";
import { packageEffects } from "./package-effects";
import { type PathPlace, placeOf } from "./path-place";
import {
  COPIERS,
  DELETERS,
  DOWNLOADERS,
  ENV_PRINTERS,
  INTERPRETERS,
  KILLERS,
  MODE_FIRST,
  NETWORK,
  PASS_THROUGH,
  PATTERN_FIRST,
  PRIVILEGE,
  QUIET,
  READERS,
  SYSTEM,
  TOUCHERS,
} from "./shell-programs";

/** Files every shell has that name no file on disk. */
const DEVICES = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/;

/** The findings of a shell command line run in `cwd` (null: no working folder). */
export function shellEffects(command: string, cwd: string | null): Finding[] {
  if (command.trim() === "") return [finding("unread", "medium", "an empty command")];
  const reading = readShell(command);
  const { invocations, unknown, redirects } = invocationsOf(reading);
  const found: Finding[] = [];
  const where = placer(invocations, cwd);
  for (const invocation of invocations) found.push(...invocationEffects(invocation, where));
  for (const redirect of redirects) {
    if (redirect.target !== null && DEVICES.test(redirect.target)) continue;
    const place = where(redirect.target);
    found.push(redirect.writes ? writeFinding(place) : readFinding(place));
  }
  const downloads = invocations.filter((words) => DOWNLOADERS.has(words[0] ?? ""));
  const runsInput = unknown.some(
    (why) => why.includes("reading its script from input") || why.includes("script known only when it runs"),
  );
  if (downloads.length > 0 && runsInput) {
    const url = downloads.flatMap((words) => hostsIn(words.slice(1)))[0];
    const from = url === undefined ? "the network" : (hostOf(url) ?? url);
    found.push(finding("download-run", "high", `downloads code from ${from} and runs it in a shell`));
  }
  for (const why of new Set(unknown)) found.push(finding("unread", "medium", `Parley cannot read ${why}`));
  if (found.length === 0) found.push(finding("unread", "medium", "Parley found no command it can read"));
  return found;
}

/** Where a path the line names lies. */
type Placer = (path: string | null) => PathPlace;

/** Programs that move the shell to another folder, after which a relative path is read from there. */
const FOLDER_CHANGERS: ReadonlySet<string> = new Set(["cd", "pushd", "popd", "chdir"]);

/**
 * How the line's paths are placed. A line that changes folder (`cd ~`, `cd /tmp`, `cd $X`, `popd`)
 * to anywhere but inside the working folder leaves its relative paths known only when it runs.
 */
function placer(invocations: readonly Invocation[], cwd: string | null): Placer {
  const leaves = invocations.some((words) => {
    if (!FOLDER_CHANGERS.has(words[0] ?? "")) return false;
    const target = words.slice(1).find((word) => word === null || !word.startsWith("-"));
    if (target === undefined || target === null || words[0] === "popd") return true;
    return placeOf(target, cwd).where !== "inside";
  });
  if (!leaves) return (path) => placeOf(path, cwd);
  return (path) => {
    const place = placeOf(path, cwd);
    if (path === null || path.startsWith("/") || path.startsWith("~")) return place;
    return { ...place, where: "unknown", words: `${path}, relative to a folder the line changes to` };
  };
}

/** What one program with its arguments does. */
function invocationEffects(words: Invocation, where: Placer): Finding[] {
  const name = words[0];
  if (name === null || name === undefined) return [];
  const args = words.slice(1);
  const operands = operandsOf(args);
  const place = where;
  if (/^mkfs(\.|$)/.test(name)) return [finding("write", "high", `formats a disk (${name})`)];
  const system = SYSTEM[name];
  if (system) return [finding("write", "high", `${system} (${name})`)];
  if (PRIVILEGE.has(name))
    return [finding("privilege", "high", `runs as another user, usually root (${name})`)];
  if (ENV_PRINTERS.has(name) && printsEnvironment(name, args))
    return [finding("secret", "high", `prints the environment, where tokens and keys often live (${name})`)];
  if (name === "git") return gitEffects(args) ?? [];
  const installs = packageEffects(name, args);
  if (installs) return installs;
  if (SHELLS.has(name)) return shellRun(name, args);
  if (PASS_THROUGH.has(name) || name === "env") return findDeletes(name, args, where);
  if (FOLDER_CHANGERS.has(name))
    return [finding("run", "low", `changes folder to ${operands[0] ?? "another"}`)];
  if (QUIET.has(name)) return [finding("run", "low", `runs ${name}, which only prints`)];
  if (DELETERS.has(name)) {
    const recursive = args.some((word) => word !== null && /^(-[a-zA-Z]*[rR]|--recursive)/.test(word));
    const found = operands.map((path) => deleteFinding(place(path), recursive));
    if (name === "shred")
      found.push(finding("delete", "high", "overwrites files so they cannot be recovered (shred)"));
    return found.length > 0
      ? found
      : [finding("delete", "medium", `runs ${name} with no file Parley can read`)];
  }
  if (KILLERS.has(name)) return killEffects(name, args);
  const network = NETWORK.has(name) ? networkEffects(name, args, where) : [];
  if (COPIERS.has(name)) {
    // `scp key host:/tmp` and `rsync dir host:` copy to and from a host: only the local side is a file here.
    const local = (path: string | null) => path === null || !/^[^/\s]*[^/\s\\]:/.test(path);
    const target = operands.at(-1);
    const sources = operands.slice(0, -1).filter(local);
    return [
      ...network,
      ...sources.map((path) =>
        name === "mv" ? deleteFinding(place(path), false) : readFinding(place(path)),
      ),
      ...(target === undefined || !local(target) ? [] : [writeFinding(place(target))]),
    ];
  }
  if (network.length > 0) return network;
  if (TOUCHERS.has(name)) return operands.map((path) => writeFinding(place(path)));
  if (MODE_FIRST.has(name)) return operands.slice(1).map((path) => writeFinding(place(path)));
  if (READERS.has(name)) {
    const found = operands.map((path) => readFinding(place(path)));
    return found.length > 0 ? found : [finding("read", "low", `runs ${name}`)];
  }
  if (PATTERN_FIRST.has(name)) {
    const inPlace =
      name === "sed" && args.some((word) => word !== null && /^(-[a-zA-Z]*i|--in-place)/.test(word));
    const files = operands
      .slice(1)
      .map((path) => (inPlace ? writeFinding(place(path)) : readFinding(place(path))));
    if (name === "awk") files.push(finding("run", "medium", "runs an awk program, which may run commands"));
    return files.length > 0 ? files : [finding("read", "low", `runs ${name}`)];
  }
  if (INTERPRETERS.has(name)) return interpreterEffects(name, args);
  return [finding("run", "medium", `runs ${name}, a program Parley does not know`)];
}

/** Words that are not options; a word known only when it runs stays null. */
function operandsOf(args: Invocation): (string | null)[] {
  const out: (string | null)[] = [];
  let options = true;
  for (const word of args) {
    if (word === "--" && options) options = false;
    else if (word !== null && options && word.startsWith("-") && word !== "-") continue;
    else out.push(word);
  }
  return out;
}

function printsEnvironment(name: string, args: Invocation): boolean {
  if (name === "printenv") return true;
  if (name === "env")
    return args.every((word) => word !== null && (word.startsWith("-") || word.includes("=")));
  return args.length === 0 || args.every((word) => word === "-p" || word === "-x");
}

/** `find` reads its folders, and with `-delete` deletes what it finds; wrappers say nothing of their own. */
function findDeletes(name: string, args: Invocation, where: Placer): Finding[] {
  if (name !== "find") return [];
  const end = args.findIndex((word) => word === null || /^[-(!]/.test(word));
  const roots = end === -1 ? args : args.slice(0, end);
  const folders = roots.length > 0 ? roots : ["."];
  if (!args.includes("-delete")) return folders.map((root) => readFinding(where(root)));
  return folders.map((root) => deleteFinding(where(root), true));
}

function shellRun(name: string, args: Invocation): Finding[] {
  // A script string (`-c`) is followed as its own invocations; a script file is not in the line.
  if (args.some((word) => word !== null && /^-[A-Za-z]*c[A-Za-z]*$/.test(word))) return [];
  const file = operandsOf(args)[0];
  if (file === undefined) return [];
  return [
    finding(
      "run",
      "medium",
      `runs the script ${file ?? "named only when it runs"} with ${name}, which Parley does not read`,
    ),
  ];
}

function interpreterEffects(name: string, args: Invocation): Finding[] {
  if (args.some((word) => word !== null && /^(-[a-zA-Z]*[ce]|--eval|-p|--print|-m)$/.test(word))) {
    const module = args[args.indexOf("-m") + 1];
    if (args.includes("-m") && module === "pip")
      return packageEffects("pip", args.slice(args.indexOf("-m") + 2)) ?? [];
    return [finding("run", "medium", `runs ${name} code Parley does not read`)];
  }
  const script = operandsOf(args)[0];
  if (script === undefined) return [finding("run", "medium", `runs ${name}`)];
  return [
    finding(
      "run",
      "medium",
      `runs ${script ?? "a script named only when it runs"} with ${name}, which Parley does not read`,
    ),
  ];
}

function killEffects(name: string, args: Invocation): Finding[] {
  const targets = operandsOf(args).map((word) => word ?? "a process known only when it runs");
  if (name !== "kill")
    return [
      finding("kill", "high", `stops every process named ${targets.join(", ") || "as given"} (${name})`),
    ];
  if (args.some((word) => word === "-1") || targets.includes("-1"))
    return [finding("kill", "high", "stops every process it may (kill -1)")];
  return [finding("kill", "medium", `stops process ${targets.join(", ") || "named by an option"}`)];
}

const UPLOADS = /^(-d|--data.*|-F|--form.*|-T|--upload-file|--json)$/;
const OUTPUTS = /^(-o|--output|-O|--output-document)$/;

function networkEffects(name: string, args: Invocation, where: Placer): Finding[] {
  const hosts = hostsIn(args);
  const found =
    hosts.length > 0
      ? hosts.map((host) => networkFinding(host, "reaches"))
      : [finding("network", "medium", `reaches the network (${name}) at a host Parley cannot read`)];
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i];
    const value = args[i + 1];
    if (word === null || word === undefined || value === undefined) continue;
    if (UPLOADS.test(word)) {
      const file =
        value === null
          ? null
          : /^@/.test(value)
            ? value.slice(1)
            : word === "-T" || word === "--upload-file"
              ? value
              : null;
      if (file !== null || value === null) {
        const read = readFinding(where(file));
        found.push(
          finding(
            read.kind === "secret" ? "secret" : "network",
            read.kind === "secret" ? "high" : "medium",
            `sends a file: ${read.detail}`,
          ),
        );
      } else found.push(finding("network", "medium", "sends data"));
    }
    if (OUTPUTS.test(word) && value !== "-" && !(name === "wget" && word === "-o"))
      found.push(writeFinding(where(value)));
  }
  return found;
}

/** The hosts its operands name (URLs, `user@host`, `host:path`). */
function hostsIn(args: Invocation): string[] {
  const hosts: string[] = [];
  for (const word of args) {
    if (word === null || word.startsWith("-")) continue;
    const host =
      /^[a-z][a-z0-9+.-]*:\/\/|^[^@/\s]+@|^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(:|\/|$)|^localhost(:|\/|$)|^\d{1,3}(\.\d{1,3}){3}/i.test(
        word,
      );
    if (host) hosts.push(word);
  }
  return hosts;
}

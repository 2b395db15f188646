// Options that make a program run other code or write somewhere else: a prefix rule trusts every
// option of its program, so an allow never covers a call that uses one of these. One table, each
// entry with the manual it comes from.
import type { Invocation } from "./command-invocations";

/** Options of one program (each entry's comment: what they do, and the manual that says so). */
export interface OptionHazard {
  program: string;
  /** Only under these subcommands (the first word after the program's options), else under any. */
  subcommands?: readonly string[];
  options: readonly string[];
}

export const OPTION_HAZARDS: readonly OptionHazard[] = [
  // Runs scripts in another shell, loads code into node, reads another config, or runs a named
  // program. npm config (docs.npmjs.com/cli/using-npm/config): script-shell, node-options,
  // userconfig, git, shell, editor, browser, viewer; npm exec --call.
  {
    program: "npm",
    options: [
      "--script-shell",
      "--node-options",
      "--userconfig",
      "--globalconfig",
      "--init-module",
      "-c",
      "--call",
      "--git",
      "--shell",
      "--editor",
      "--browser",
      "--viewer",
    ],
  },
  // Runs another command or package. npm exec (docs.npmjs.com/cli/commands/npm-exec): --call,
  // --package.
  {
    program: "npx",
    options: ["--script-shell", "--node-options", "--userconfig", "-c", "--call", "-p", "--package"],
  },
  // Loads or evaluates other code. node(1), Node.js command-line options (nodejs.org/api/cli.html).
  {
    program: "node",
    options: [
      "--import",
      "--require",
      "-r",
      "--loader",
      "--experimental-loader",
      "-e",
      "--eval",
      "-p",
      "--print",
      "--env-file",
      "--env-file-if-exists",
    ],
  },
  // Sets configuration (core.pager, core.fsmonitor, aliases run programs), uses another
  // repository's configuration and hooks, or writes output elsewhere. git(1)
  // -c/-C/--git-dir/--exec-path; git-config(1) core.fsmonitor, core.pager, alias.*;
  // git-diff(1) --output, --ext-diff.
  {
    program: "git",
    options: ["-c", "--config-env", "--exec-path", "-C", "--git-dir", "--output", "--ext-diff"],
  },
  // Runs another program on the remote side or locally. git-fetch(1) --upload-pack,
  // git-clone(1) -u/--template, git-push(1) --receive-pack/--exec, git-archive(1) --exec.
  {
    program: "git",
    subcommands: ["fetch", "pull", "clone", "ls-remote", "archive", "push", "send-pack", "submodule"],
    options: ["--upload-pack", "-u", "--receive-pack", "--exec", "--template", "--remote"],
  },
  // Runs a command for each step or file, or writes output elsewhere. git-rebase(1) --exec,
  // git-difftool(1) --extcmd/--tool, git-grep(1) --open-files-in-pager, git-format-patch(1)
  // -o, git-archive(1) --output.
  {
    program: "git",
    subcommands: ["rebase", "difftool", "mergetool", "grep", "bisect", "format-patch", "archive"],
    options: [
      "-x",
      "--exec",
      "--extcmd",
      "-t",
      "--tool",
      "-O",
      "--open-files-in-pager",
      "-o",
      "--output",
      "--output-directory",
    ],
  },
  // Runs a command on each file, deletes files, or writes to a file. find(1), GNU findutils
  // manual: Actions.
  {
    program: "find",
    options: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
  },
  // Rewrites files in place. sed(1), GNU sed manual: --in-place.
  {
    program: "sed",
    options: ["-i", "--in-place"],
  },
  // Writes to a file or runs a compressor. sort(1), GNU coreutils manual.
  {
    program: "sort",
    options: ["-o", "--output", "--compress-program"],
  },
  // Runs another program. tar(1), GNU tar manual: --to-command, --checkpoint-action=exec,
  // --use-compress-program.
  {
    program: "tar",
    options: [
      "--to-command",
      "--checkpoint-action",
      "-I",
      "--use-compress-program",
      "--rsh-command",
      "-F",
      "--info-script",
      "--new-volume-script",
      "--rmt-command",
    ],
  },
  // Runs another program as the transport or on the remote side. rsync(1): --rsh, --rsync-path.
  {
    program: "rsync",
    options: ["-e", "--rsh", "--rsync-path"],
  },
  // Sets ProxyCommand or LocalCommand, which run programs. ssh(1) -o, ssh_config(5)
  // ProxyCommand, LocalCommand.
  {
    program: "ssh",
    options: ["-o", "-F"],
  },
  // Runs another program as the transport. scp(1) -S, ssh_config(5) ProxyCommand.
  {
    program: "scp",
    options: ["-o", "-F", "-S"],
  },
  // Writes a file, or reads options from a file. curl(1): --output, --remote-name, --config.
  {
    program: "curl",
    options: ["-o", "--output", "-O", "--remote-name", "-K", "--config", "--output-dir"],
  },
  // Writes elsewhere, runs wgetrc commands, or runs a program. wget(1): --output-document,
  // --execute, --use-askpass.
  {
    program: "wget",
    options: ["-O", "--output-document", "-P", "--directory-prefix", "-e", "--execute", "--use-askpass"],
  },
  // Reads another makefile, whose recipes run. make(1), GNU make manual: Options Summary.
  {
    program: "make",
    options: ["-f", "--file", "--makefile", "-C", "--directory", "--eval", "-E"],
  },
  // Sets configuration such as a target runner, which runs a program. cargo(1) --config; The
  // Cargo Book: Configuration, target.<triple>.runner.
  {
    program: "cargo",
    options: ["--config", "-Z"],
  },
  // Runs another program around the build or the test binary. go help build (-toolexec,
  // -overlay), go help test (-exec).
  {
    program: "go",
    options: ["-toolexec", "-exec", "-overlay"],
  },
  // Loads a plugin module or another configuration. pytest --help: -p name, -c file.
  {
    program: "pytest",
    options: ["-p", "-c", "--config-file", "--rootdir"],
  },
  // Runs another program to test the archive. zip(1): -TT/--unzip-command.
  {
    program: "zip",
    options: ["-TT", "--unzip-command"],
  },
];

/** The first hazardous option `invocation` uses; null when it uses none. */
export function hazardousOption(invocation: Invocation): string | null {
  const [program, ...rest] = invocation;
  if (!program) return null;
  const subcommand = rest.find((word) => word !== null && !word.startsWith("-"));
  for (const hazard of OPTION_HAZARDS) {
    if (hazard.program !== program) continue;
    if (hazard.subcommands && !hazard.subcommands.includes(subcommand ?? "")) continue;
    for (const word of rest) {
      // After `--` come operands (paths, a script's own arguments), not the program's options.
      if (word === "--") break;
      const option = word === null ? undefined : hazard.options.find((candidate) => uses(word, candidate));
      if (option) return option;
    }
  }
  return null;
}

/**
 * `--opt`, `--opt=value`, and a short `-o` anywhere in a cluster of short options (`-sSLo`, `-ni`),
 * which also catches a value attached to another option (stricter: such a call is asked about).
 */
function uses(word: string, option: string): boolean {
  if (word === option || word.startsWith(`${option}=`)) return true;
  if (option.length !== 2 || word.startsWith("--") || !word.startsWith("-")) return false;
  return word.startsWith(option) || (/^-[A-Za-z0-9]+$/.test(word) && word.includes(option.slice(1)));
}

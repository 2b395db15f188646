// Programs that run another program given in their arguments, and how to find it: the options
// that take a value, how many words come before the command, and the options whose value is a
// script. Read from each program's manual (sudo(8), env(1), nice(1), timeout(1), stdbuf(1),
// nohup(1), xargs(1), watch(1), ionice(1), chrt(1), taskset(1), flock(1), chroot(8), su(1),
// script(1), strace(1), and zsh's precommand modifiers in zshmisc(1)).

export interface Wrapper {
  /** Options that take the next word as their value (or an attached `--opt=value`). */
  valued: readonly string[];
  /** Options whose value is a shell script the program runs. */
  script?: readonly string[];
  /** Whether `NAME=value` words may come before the command (`sudo`, `env`). */
  assignments?: boolean;
  /** Words between the options and the command (timeout's duration, chroot's folder). */
  positional?: number;
  /** Flags after which the rest of the words are one shell script (`sudo -s`, watch's default). */
  scriptFlags?: readonly string[];
  /** Whether the command's words are also run joined as one script (watch passes them to `sh -c`). */
  joinsRest?: boolean;
  /** What runs when no command is given (xargs runs echo). */
  defaultCommand?: string;
}

export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    valued: [
      "-u",
      "-g",
      "-C",
      "-D",
      "-h",
      "-p",
      "-r",
      "-t",
      "-T",
      "-U",
      "-R",
      "--user",
      "--group",
      "--close-from",
      "--chdir",
      "--host",
      "--prompt",
      "--role",
      "--type",
      "--command-timeout",
      "--other-user",
      "--chroot",
    ],
    assignments: true,
    scriptFlags: ["-s", "-i", "--shell", "--login"],
  },
  doas: { valued: ["-u", "-C"], scriptFlags: ["-s"] },
  env: {
    valued: ["-u", "-C", "-a", "-P", "--unset", "--chdir", "--argv0"],
    script: ["-S", "--split-string"],
    assignments: true,
  },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  nohup: { valued: [] },
  time: { valued: ["-f", "-o", "--format", "--output"] },
  nice: { valued: ["-n", "--adjustment"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], positional: 1 },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  setsid: { valued: [] },
  ionice: { valued: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata", "--pid", "--pgid", "--uid"] },
  chrt: {
    valued: ["-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"],
    positional: 1,
  },
  taskset: { valued: [], positional: 1 },
  flock: {
    valued: ["-w", "-E", "--timeout", "--conflict-exit-code"],
    script: ["-c", "--command"],
    positional: 1,
  },
  chroot: { valued: ["--userspec", "--groups"], positional: 1 },
  su: { valued: ["-s", "-g", "-G", "--shell", "--group", "--supp-group"], script: ["-c", "--command"] },
  runuser: { valued: ["-u", "-s", "-g", "-G", "--user", "--shell", "--group"], script: ["-c", "--command"] },
  script: {
    valued: ["-E", "-I", "-O", "-B", "-T", "--echo", "--log-in", "--log-out", "--log-io"],
    script: ["-c", "--command"],
  },
  strace: { valued: ["-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"] },
  ltrace: { valued: ["-o", "-e", "-p", "-s", "-u", "-a", "-l", "-n", "-x"] },
  unbuffer: { valued: [] },
  caffeinate: { valued: ["-t", "-w"] },
  busybox: { valued: [] },
  watch: {
    valued: ["-n", "-d", "--interval", "--differences", "-q", "--equexit"],
    joinsRest: true,
  },
  xargs: {
    valued: [
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "-d",
      "-E",
      "-a",
      "--max-lines",
      "--max-args",
      "--max-procs",
      "--max-chars",
      "--delimiter",
      "--eof",
      "--arg-file",
      "--replace",
      "--process-slot-var",
    ],
    defaultCommand: "echo",
  },
  // zsh's precommand modifiers and `repeat N cmd`.
  nocorrect: { valued: [] },
  noglob: { valued: [] },
  "-": { valued: [] },
  repeat: { valued: [], positional: 1 },
};

/** Shells whose `-c` runs its next word as a script. */
export const SHELLS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "posh",
  "fish",
  "rbash",
]);

/**
 * git's global options (git(1)): those before the subcommand, so `git -C x --no-pager push` is
 * `git push` to a deny or a policy. These take a value as the next word.
 */
export const GIT_VALUED_OPTIONS: readonly string[] = [
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
  "--attr-source",
];

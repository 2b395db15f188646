// The programs whose effects Parley knows, by what they do to files, the network, packages and
// processes. A program in none of these lists is one Parley does not know, and says so.

/** Programs that only print or compute: low, whatever their arguments. */
export const QUIET: ReadonlySet<string> = new Set([
  "echo",
  "printf",
  "pwd",
  "whoami",
  "id",
  "date",
  "uname",
  "hostname",
  "true",
  "false",
  "test",
  "[",
  "[[",
  "basename",
  "dirname",
  "which",
  "type",
  "seq",
  "sleep",
  "yes",
  "expr",
  "export",
  "exit",
  ":",
  "tr",
  "column",
  "uptime",
  "nproc",
  "locale",
  "tput",
  "clear",
  "history",
  "read",
  "wait",
  "ps",
  "pgrep",
  "jobs",
  "printf",
  "let",
  "local",
  "shift",
  "unset",
  "umask",
  "hash",
  "help",
]);

/** Programs that read the files named in their arguments. */
export const READERS: ReadonlySet<string> = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "wc",
  "nl",
  "od",
  "xxd",
  "hexdump",
  "strings",
  "file",
  "stat",
  "du",
  "df",
  "ls",
  "tree",
  "sort",
  "uniq",
  "cut",
  "diff",
  "cmp",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "shasum",
  "base64",
  "bat",
  "readlink",
  "realpath",
  "paste",
  "fold",
  "fmt",
  "column",
  "tac",
  "rev",
  "lsof",
  "exa",
  "eza",
  "fd",
  "comm",
  "join",
  "source",
  ".",
]);

/** Readers whose first operand is a pattern or a program, not a file. */
export const PATTERN_FIRST: ReadonlySet<string> = new Set([
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ack",
  "jq",
  "yq",
  "sed",
  "awk",
]);

/** Programs that delete the files named in their arguments. */
export const DELETERS: ReadonlySet<string> = new Set(["rm", "rmdir", "unlink", "shred", "trash", "srm"]);

/** Programs that create or change the files named in their arguments. */
export const TOUCHERS: ReadonlySet<string> = new Set(["touch", "mkdir", "truncate", "tee", "mkfifo"]);

/** Programs whose first operand is a mode or an owner, and the rest the files they change. */
export const MODE_FIRST: ReadonlySet<string> = new Set(["chmod", "chown", "chgrp", "chattr", "setfacl"]);

/** Programs that copy to their last operand (and `mv`, which also removes its sources). */
export const COPIERS: ReadonlySet<string> = new Set(["cp", "mv", "install", "ln", "rsync", "scp"]);

/** Programs that reach the network; their hosts are read from their operands. */
export const NETWORK: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "http",
  "https",
  "xh",
  "aria2c",
  "ssh",
  "scp",
  "sftp",
  "ftp",
  "telnet",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "ping",
  "dig",
  "nslookup",
  "host",
  "whois",
  "traceroute",
  "rsync",
  "mosh",
]);

/** Of those, the ones that fetch a file (a download piped into a shell runs it). */
export const DOWNLOADERS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "http",
  "https",
  "xh",
  "aria2c",
  "fetch",
]);

/** Programs that run another as another user. */
export const PRIVILEGE: ReadonlySet<string> = new Set(["sudo", "doas", "su", "runuser", "pkexec", "chroot"]);

/** Wrappers whose command is read as its own invocation: nothing of their own to say. */
export const PASS_THROUGH: ReadonlySet<string> = new Set([
  "command",
  "builtin",
  "exec",
  "nohup",
  "time",
  "nice",
  "timeout",
  "stdbuf",
  "setsid",
  "ionice",
  "chrt",
  "taskset",
  "flock",
  "xargs",
  "watch",
  "unbuffer",
  "caffeinate",
  "nocorrect",
  "noglob",
  "-",
  "repeat",
  "strace",
  "ltrace",
  "script",
  "busybox",
  "eval",
  "alias",
  "trap",
  "find",
]);

/** Programs that stop processes; those that pick them by name may reach other people's. */
export const KILLERS: ReadonlySet<string> = new Set(["kill", "pkill", "killall", "killall5", "skill"]);

/** Programs that change the whole machine: its services, disks, schedule or power. */
export const SYSTEM: Readonly<Record<string, string>> = {
  systemctl: "changes the system's services",
  service: "changes the system's services",
  launchctl: "changes the system's services",
  shutdown: "stops the machine",
  reboot: "restarts the machine",
  halt: "stops the machine",
  poweroff: "stops the machine",
  mkfs: "formats a disk",
  fdisk: "changes a disk's partitions",
  parted: "changes a disk's partitions",
  mount: "mounts a file system",
  umount: "unmounts a file system",
  crontab: "changes scheduled jobs",
  useradd: "changes the machine's users",
  userdel: "changes the machine's users",
  usermod: "changes the machine's users",
  passwd: "changes a password",
  iptables: "changes the firewall",
  ufw: "changes the firewall",
  dd: "copies raw data between files or disks",
};

/** Interpreters that run code given on the line (`-c`, `-e`) or in a script file. */
export const INTERPRETERS: ReadonlySet<string> = new Set([
  "python",
  "python3",
  "python2",
  "node",
  "deno",
  "ruby",
  "perl",
  "php",
  "lua",
  "Rscript",
  "osascript",
  "pwsh",
  "powershell",
  "tsx",
  "ts-node",
]);

/** Programs that print the environment, where tokens and keys often live. */
export const ENV_PRINTERS: ReadonlySet<string> = new Set(["env", "printenv", "set", "export", "declare"]);

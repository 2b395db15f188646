// Shell commands and what they do to files: reading, secrets, writes and deletes, and where.
import { bash, type TableRow } from "./table-rows";

export const SHELL_FILE_CALLS: readonly TableRow[] = [
  // Reading, printing, listing.
  ["ls of the working folder", { call: bash("ls -la"), level: "low", kinds: ["read"] }],
  [
    "cat of a file inside the working folder",
    { call: bash("cat src/index.ts"), level: "low", kinds: ["read"], says: "inside the working folder" },
  ],
  [
    "cat of a file outside the working folder",
    {
      call: bash("cat /var/log/syslog"),
      level: "medium",
      kinds: ["read"],
      says: "outside the working folder",
    },
  ],
  ["echo", { call: bash("echo hello"), level: "low", kinds: ["run"] }],
  ["pwd and date joined by &&", { call: bash("pwd && date"), level: "low", kinds: ["run"] }],
  [
    "grep for a pattern in a folder inside",
    { call: bash("grep -rn TODO src"), level: "low", kinds: ["read"] },
  ],
  [
    "a pipe of cat, sort and uniq",
    { call: bash("cat notes.txt | sort | uniq -c"), level: "low", kinds: ["read"] },
  ],
  ["head with a count", { call: bash("head -n 5 README.md"), level: "low", kinds: ["read"] }],
  ["wc of a relative file", { call: bash("wc -l package.json"), level: "low", kinds: ["read"] }],
  [
    "a relative path climbing out of the working folder",
    { call: bash("cat ../other/file.txt"), level: "medium", kinds: ["read"], says: "outside" },
  ],
  ["find without -delete or -exec", { call: bash("find . -name '*.ts'"), level: "low", kinds: ["read"] }],
  ["git status", { call: bash("git status"), level: "low", kinds: ["read"] }],
  ["git log with options", { call: bash("git log --oneline -5"), level: "low", kinds: ["read"] }],
  ["git diff through git -C", { call: bash("git -C sub diff"), level: "low", kinds: ["read"] }],
  ["jq of a file", { call: bash("jq .name package.json"), level: "low", kinds: ["read"] }],
  ["sed printing (not in place)", { call: bash("sed -n 1,5p src/a.ts"), level: "low", kinds: ["read"] }],
  // Secrets.
  ["cat of .env", { call: bash("cat .env"), level: "high", kinds: ["secret"], says: "environment secrets" }],
  ["cat of .env.local", { call: bash("cat .env.local"), level: "high", kinds: ["secret"] }],
  [
    "cat of an SSH private key",
    { call: bash("cat ~/.ssh/id_rsa"), level: "high", kinds: ["secret"], says: "SSH keys" },
  ],
  [
    "cat of AWS credentials",
    { call: bash("cat ~/.aws/credentials"), level: "high", kinds: ["secret"], says: "AWS credentials" },
  ],
  ["reading .netrc", { call: bash("less ~/.netrc"), level: "high", kinds: ["secret"] }],
  [
    "reading a .pem key",
    { call: bash("head certs/server.pem"), level: "high", kinds: ["secret"], says: "private key" },
  ],
  ["printenv", { call: bash("printenv"), level: "high", kinds: ["secret"], says: "environment" }],
  ["env with no command", { call: bash("env"), level: "high", kinds: ["secret"] }],
  [
    "env running a command is not a print of the environment",
    { call: bash("env FOO=1 ls"), level: "low", kinds: ["read"] },
  ],
  [
    "a secret read through a redirection",
    { call: bash("wc -c < ~/.ssh/id_ed25519"), level: "high", kinds: ["secret"] },
  ],
  ["reading /etc/shadow", { call: bash("cat /etc/shadow"), level: "high", kinds: ["secret"] }],
  ["grep across ~/.aws", { call: bash("grep -r key ~/.aws"), level: "high", kinds: ["secret"] }],
  // Writes.
  [
    "touch inside",
    { call: bash("touch build/stamp"), level: "medium", kinds: ["write"], says: "inside the working folder" },
  ],
  ["mkdir -p inside", { call: bash("mkdir -p dist/assets"), level: "medium", kinds: ["write"] }],
  ["redirect into a file inside", { call: bash("echo hi > out.txt"), level: "medium", kinds: ["write"] }],
  ["append into a file inside", { call: bash("date >> log.txt"), level: "medium", kinds: ["write"] }],
  [
    "redirect to /dev/null writes nothing",
    { call: bash("ls > /dev/null 2>&1"), level: "low", kinds: ["read"] },
  ],
  [
    "redirect into /tmp",
    { call: bash("echo x > /tmp/x"), level: "high", kinds: ["write"], says: "outside the working folder" },
  ],
  [
    "append to ~/.bashrc",
    { call: bash("echo 'alias x=y' >> ~/.bashrc"), level: "high", kinds: ["write"], says: "start-up file" },
  ],
  ["tee into ~/.zshrc", { call: bash("echo x | tee -a ~/.zshrc"), level: "high", kinds: ["write"] }],
  [
    "writing a git hook",
    { call: bash("cp hook.sh .git/hooks/pre-commit"), level: "high", kinds: ["write"], says: "git hooks" },
  ],
  [
    "writing .env",
    { call: bash("echo KEY=1 > .env"), level: "high", kinds: ["write"], says: "environment secrets" },
  ],
  [
    "cp inside the working folder",
    { call: bash("cp a.txt b.txt"), level: "medium", kinds: ["read", "write"] },
  ],
  ["cp to outside", { call: bash("cp a.txt /usr/local/bin/a"), level: "high", kinds: ["write"] }],
  ["mv inside", { call: bash("mv old.ts new.ts"), level: "medium", kinds: ["delete", "write"] }],
  ["chmod inside", { call: bash("chmod +x scripts/run.sh"), level: "medium", kinds: ["write"] }],
  ["chown outside", { call: bash("chown root /usr/bin/thing"), level: "high", kinds: ["write"] }],
  ["sed -i inside", { call: bash("sed -i 's/a/b/' src/x.ts"), level: "medium", kinds: ["write"] }],
  ["sed -i on /etc/hosts", { call: bash("sed -i 's/a/b/' /etc/hosts"), level: "high", kinds: ["write"] }],
  [
    "writing to ~/.ssh/authorized_keys",
    { call: bash("cat key.pub >> ~/.ssh/authorized_keys"), level: "high", kinds: ["write"] },
  ],
  [
    "a redirection target known only when it runs",
    { call: bash('echo x > "$OUT"'), level: "high", kinds: ["write"], says: "known only when it runs" },
  ],
  ["crontab", { call: bash("crontab -l"), level: "high", kinds: ["write"], says: "scheduled jobs" }],
  // Deletes.
  [
    "rm of a file inside",
    { call: bash("rm build/out.js"), level: "medium", kinds: ["delete"], says: "inside the working folder" },
  ],
  [
    "rm -rf of a folder inside",
    {
      call: bash("rm -rf node_modules"),
      level: "medium",
      kinds: ["delete"],
      says: "deletes everything under",
    },
  ],
  ["rm -rf of the working folder itself", { call: bash("rm -rf ."), level: "high", kinds: ["delete"] }],
  ["rm -rf *", { call: bash("rm -rf *"), level: "high", kinds: ["delete"] }],
  ["rm -rf /", { call: bash("rm -rf /"), level: "high", kinds: ["delete"] }],
  ["rm -rf of home", { call: bash("rm -rf ~"), level: "high", kinds: ["delete"] }],
  [
    "rm of a path outside",
    { call: bash("rm /etc/passwd"), level: "high", kinds: ["delete"], says: "outside the working folder" },
  ],
  ["rm of a path climbing out", { call: bash("rm -r ../sibling"), level: "high", kinds: ["delete"] }],
  [
    "rm of a variable's path",
    { call: bash("rm -rf $DIR"), level: "high", kinds: ["delete"], says: "known only when it runs" },
  ],
  [
    "rm through sudo",
    { call: bash("sudo rm -rf /var/lib/x"), level: "high", kinds: ["privilege", "delete"] },
  ],
  ["rm through xargs", { call: bash("ls | xargs rm"), level: "medium", kinds: ["delete"] }],
  ["rm inside bash -c", { call: bash("bash -c 'rm -rf /tmp/cache'"), level: "high", kinds: ["delete"] }],
  ["rm through eval", { call: bash("eval 'rm -rf ~/Documents'"), level: "high", kinds: ["delete"] }],
  [
    "rm through find -exec",
    { call: bash("find /var/tmp -exec rm {} \\;"), level: "high", kinds: ["delete"] },
  ],
  [
    "find -delete inside",
    { call: bash("find build -name '*.o' -delete"), level: "medium", kinds: ["delete"] },
  ],
  ["find -delete outside", { call: bash("find /tmp -delete"), level: "high", kinds: ["delete"] }],
  ["rmdir inside", { call: bash("rmdir empty"), level: "medium", kinds: ["delete"] }],
  ["shred", { call: bash("shred notes.txt"), level: "high", kinds: ["delete"] }],
  [
    "a relative delete after cd to home",
    {
      call: bash("cd ~ && rm -rf .cache"),
      level: "high",
      kinds: ["delete"],
      says: "relative to a folder the line changes to",
    },
  ],
  [
    "a relative delete after cd out, in a subshell",
    { call: bash("(cd /tmp && rm -rf x)"), level: "high", kinds: ["delete"] },
  ],
  [
    "a relative delete after cd to a folder known only when it runs",
    { call: bash('cd "$D" && rm x'), level: "high", kinds: ["delete"] },
  ],
  [
    "a relative delete after cd to a folder inside",
    { call: bash("cd build && rm out.js"), level: "medium", kinds: ["delete", "run"] },
  ],
  ["rm of .env", { call: bash("rm .env"), level: "high", kinds: ["delete"] }],
];

// The daemon's runs: each start spawns the bridge in the asked folder (or a fresh git worktree of
// it) with the session's agent link and never the daemon's key, and reports when it ends.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DaemonRuns } from "../../../../bin/daemon/daemon-runs";
import type { StartPlan } from "../../../../bin/daemon/daemon-starts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "parley-daemon-runs-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Stands in for bin/parley.mjs: records where it ran, its arguments and the credentials it got.
const bridge = join(dir, "bridge.mjs");
writeFileSync(
  bridge,
  `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(join(dir, "ran.json"))}, JSON.stringify({
  cwd: process.cwd(), args: process.argv.slice(2),
  link: process.env.PARLEY_LINK ?? null, key: process.env.PARLEY_AGENT_KEY ?? null,
}));`,
);

// Worktrees are named by session, so each run of this file uses a session of its own.
const SESSION = [...crypto.getRandomValues(new Uint8Array(16))]
  .map((b) => b.toString(16).padStart(2, "0"))
  .join("");

function plan(folder: string, worktree: boolean): StartPlan {
  return {
    sessionId: SESSION,
    agent: "claude",
    protocol: "acp",
    command: ["claude-agent-acp", "--flag"],
    folder,
    worktree,
    text: "Fix it; rm -rf / is just text",
    agentLink: "https://parley.example/#/s/0123456789abcdef0123456789abcdef?token=t",
  };
}

function runs() {
  const ended: { sessionId: string; code: number | null }[] = [];
  let wake: () => void = () => {};
  const done = new Promise<void>((resolve) => (wake = resolve));
  const runner = new DaemonRuns({
    parleyScript: bridge,
    log: () => {},
    ended: (sessionId, code) => {
      ended.push({ sessionId, code });
      wake();
    },
  });
  return { runner, ended, done };
}

describe("the daemon's runs", () => {
  it("run the bridge in a fresh git worktree with the agent link, the message as one argument and no agent key", async () => {
    vi.stubEnv("PARLEY_AGENT_KEY", "pak_secret");
    const repo = join(dir, "repo");
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(repo, "README"), "hi\n");
    git("add", "README");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "first");
    const { runner, ended, done } = runs();
    expect(await runner.start(plan(repo, true))).toEqual({ ok: true });
    await done;
    vi.unstubAllEnvs();
    const ran = JSON.parse(readFileSync(join(dir, "ran.json"), "utf8"));
    expect(ran.cwd).not.toBe(repo);
    expect(readFileSync(join(ran.cwd, "README"), "utf8")).toBe("hi\n");
    expect(ran.args).toEqual([
      "acp",
      "--prompt",
      "Fix it; rm -rf / is just text",
      "--name",
      "claude",
      "--",
      "claude-agent-acp",
      "--flag",
    ]);
    expect(ran.link).toBe(plan(repo, true).agentLink);
    expect(ran.key).toBe(null);
    expect(ended).toEqual([{ sessionId: SESSION, code: 0 }]);
    git("worktree", "remove", "--force", ran.cwd);
  });

  it("refuse a worktree of a folder that is not a git repository, running nothing", async () => {
    const plain = join(dir, "plain");
    mkdirSync(plain);
    const { runner, ended } = runs();
    const started = await runner.start({ ...plan(plain, true), sessionId: "f".repeat(32) });
    expect(started.ok).toBe(false);
    expect(started.ok ? "" : started.reason).toContain(`no git worktree of ${plain}`);
    expect(runner.count).toBe(0);
    expect(ended).toEqual([]);
  });
});

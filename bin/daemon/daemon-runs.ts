// The agents `parley daemon` runs: one bridge process per session (`parley acp --prompt` for ACP
// agents, `parley claude-code --prompt` for Claude Code), in the asked folder or a fresh git
// worktree of it. Each gets the session's agent link only, never the daemon's agent key.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { promisify } from "node:util";
import type { StartPlan } from "./daemon-starts";

const run = promisify(execFile);

export interface RunsOptions {
  /** The `parley` script this daemon runs as (bin/parley.mjs): its bridges run from the same tree. */
  parleyScript: string;
  log: (line: string) => void;
  ended: (sessionId: string, code: number | null) => void;
}

export class DaemonRuns {
  // INVARIANT: the processes this daemon started; they are its children, so they end with it.
  private readonly running = new Map<string, ChildProcess>();

  constructor(private readonly options: RunsOptions) {}

  /** Starts the bridge for an allowed plan; a reason when it could not be started. */
  async start(plan: StartPlan): Promise<{ ok: true } | { ok: false; reason: string }> {
    if (this.running.has(plan.sessionId)) return { ok: true };
    let cwd = plan.folder;
    if (plan.worktree) {
      try {
        cwd = await freshWorktree(plan.folder, plan.sessionId);
      } catch (error) {
        return { ok: false, reason: `no git worktree of ${plan.folder}: ${firstLine(error)}` };
      }
    }
    const bridge = plan.protocol === "acp" ? "acp" : "claude-code";
    const args = [
      this.options.parleyScript,
      bridge,
      "--prompt",
      plan.text,
      "--name",
      plan.agent,
      "--",
      ...plan.command,
    ];
    // The link rides in the environment, not the command line other users' `ps` shows.
    const { PARLEY_AGENT_KEY: _key, PARLEY_TOKEN: _token, PARLEY_SERVER: _server, ...env } = process.env;
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...env, PARLEY_LINK: plan.agentLink },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once("spawn", () => resolve(null));
      child.once("error", resolve);
    });
    if (spawned) return { ok: false, reason: `the bridge could not be started: ${spawned.message}` };
    this.running.set(plan.sessionId, child);
    this.options.log(
      `started ${plan.agent} (${plan.protocol}) in ${cwd} for session ${plan.sessionId}, pid ${child.pid}`,
    );
    child.once("exit", (code, signal) => {
      this.running.delete(plan.sessionId);
      this.options.log(`session ${plan.sessionId}: ${plan.agent} ended (${signal ?? `code ${code}`})`);
      this.options.ended(plan.sessionId, code);
    });
    return { ok: true };
  }

  /** Ends a session's bridge, which ends its agent and withdraws its open cards. */
  stop(sessionId: string): boolean {
    const child = this.running.get(sessionId);
    if (!child) return false;
    this.options.log(`stopping session ${sessionId} (pid ${child.pid})`);
    child.kill("SIGTERM");
    return true;
  }

  stopAll(): void {
    for (const sessionId of [...this.running.keys()]) this.stop(sessionId);
  }

  get count(): number {
    return this.running.size;
  }
}

/** A detached worktree of the folder's repository, made for this session alone. */
async function freshWorktree(folder: string, sessionId: string): Promise<string> {
  const parent = join(tmpdir(), "parley-worktrees");
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const path = join(parent, sessionId);
  await run("git", ["-C", folder, "worktree", "add", "--detach", path]);
  return path;
}

function firstLine(error: unknown): string {
  const text =
    (error as { stderr?: string }).stderr || (error instanceof Error ? error.message : String(error));
  return text.trim().split("\n")[0] ?? "";
}

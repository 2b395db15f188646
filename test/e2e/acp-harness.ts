// What the ACP tests share: `parley acp` in front of the real `claude-agent-acp` (Claude Code
// through the Agent SDK) run offline against a local Messages API, and a test editor built from
// the ACP SDK's client side that records each permission request and whether it was cancelled.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { Readable, Writable } from "node:stream";
import {
  type ClientConnection,
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import { claudeBinary, PARLEY_BIN, ROOT, type Sandbox } from "./claude-code-harness";

export const CLAUDE_AGENT_ACP = join(
  ROOT,
  "node_modules",
  "@zed-industries",
  "claude-agent-acp",
  "dist",
  "index.js",
);

/** The agent command after `--`, and the environment it needs offline (as root: IS_SANDBOX). */
export function claudeAcpCommand(box: Sandbox): { command: string[]; env: NodeJS.ProcessEnv } {
  return {
    command: [process.execPath, CLAUDE_AGENT_ACP],
    env: { ...box.env, CLAUDE_CODE_EXECUTABLE: claudeBinary(), IS_SANDBOX: "1" },
  };
}

/**
 * Runs `parley acp <args> -- <agent>` with piped stdio; stderr is kept for failure messages, and
 * stdout too when `headless` (in proxy mode stdout is the editor's side of the protocol).
 */
export function spawnParleyAcp(
  box: Sandbox,
  args: string[],
  headless = false,
): { child: ChildProcess; stderr: () => string; stdout: () => string; exit: Promise<number | null> } {
  const agent = claudeAcpCommand(box);
  const child = spawn(process.execPath, [PARLEY_BIN, "acp", ...args, "--", ...agent.command], {
    cwd: box.cwd,
    env: agent.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  if (headless)
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, stderr: () => stderr, stdout: () => stdout, exit };
}

export interface SeenPermission {
  params: RequestPermissionRequest;
  /** Answers in the editor with the option of this kind. */
  choose(kind: "allow_once" | "reject_once"): void;
  /** Resolves when `parley acp` cancels the request (`$/cancel_request`). */
  cancelled: Promise<void>;
  wasCancelled(): boolean;
}

/** An ACP client over `parley acp`'s stdio, holding one session in the sandbox. */
export class TestEditor {
  readonly seen: SeenPermission[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly connection: ClientConnection;
  sessionId = "";

  constructor(readonly proxy: ChildProcess) {
    if (!proxy.stdin || !proxy.stdout) throw new Error("parley acp's stdio is not piped");
    const stream = ndJsonStream(
      Writable.toWeb(proxy.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(proxy.stdout) as ReadableStream<Uint8Array>,
    );
    const app = client({ name: "test editor" }).onRequest("session/request_permission", (ctx) => {
      let cancelled = false;
      return new Promise<RequestPermissionResponse>((resolve) => {
        const onCancel = new Promise<void>((fire) => {
          ctx.signal.addEventListener(
            "abort",
            () => {
              cancelled = true;
              fire();
              resolve({ outcome: { outcome: "cancelled" } });
            },
            { once: true },
          );
        });
        this.seen.push({
          params: ctx.params,
          choose: (kind) => {
            const option = ctx.params.options.find((o) => o.kind === kind);
            if (!option) throw new Error(`no ${kind} option`);
            resolve({ outcome: { outcome: "selected", optionId: option.optionId } });
          },
          cancelled: onCancel,
          wasCancelled: () => cancelled,
        });
        for (const wake of this.waiters) wake();
      });
    });
    this.connection = app.connect(stream);
  }

  /** Initializes and opens a session in `cwd`. */
  async open(cwd: string): Promise<string> {
    await this.connection.agent.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: "test-editor", version: "1" },
    });
    const session = await this.connection.agent.request("session/new", { cwd, mcpServers: [] });
    this.sessionId = session.sessionId;
    return session.sessionId;
  }

  prompt(text: string): Promise<PromptResponse> {
    return this.connection.agent.request("session/prompt", {
      sessionId: this.sessionId,
      prompt: [{ type: "text", text }],
    });
  }

  cancel(): Promise<void> {
    return this.connection.agent.notify("session/cancel", { sessionId: this.sessionId });
  }

  /** The next permission request the editor saw, once it arrives. */
  async nextPermission(timeoutMs = 60_000): Promise<SeenPermission> {
    const deadline = Date.now() + timeoutMs;
    const index = this.taken++;
    for (;;) {
      const seen = this.seen[index];
      if (seen) return seen;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no permission request reached the editor in time");
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }
  private taken = 0;

  close(): void {
    this.connection.close();
  }
}

// What the ACP tests share: `parley acp` in front of the real `claude-agent-acp` (Claude Code
// through the Agent SDK) run offline against a local Messages API, and a test editor built from
// the ACP SDK's client side that records each permission request and whether it was cancelled.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import process from "node:process";
import { Readable, Writable } from "node:stream";
import {
  type ClientCapabilities,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
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

/**
 * Removes a sandbox, retrying while a process that is still ending (Claude Code, after its
 * adapter stopped) writes its last files into it.
 */
export function removeSandbox(box: Sandbox): Promise<void> {
  return rm(dirname(box.home), { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

/** An agent command for after `--`, and the environment it needs to run offline. */
export interface AcpAgent {
  command: string[];
  env: NodeJS.ProcessEnv;
}

/** The small ACP agent that asks one elicitation per prompt turn (fixtures/acp-elicit-agent.ts). */
export function elicitAgentCommand(box: Sandbox): AcpAgent {
  return {
    command: [process.execPath, join(ROOT, "test", "e2e", "fixtures", "acp-elicit-agent.ts")],
    env: box.env,
  };
}

/** A card's state as the agent reads it: `status:outcome`, e.g. `resolved:withdrawn`. */
export async function cardState(
  baseUrl: string,
  session: { sessionId: string; token: string },
  interactionId: string,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const body = (await response.json()) as { status?: string; resolution?: { outcome?: string } };
  return `${body.status}:${body.resolution?.outcome}`;
}

/** claude-agent-acp running the Claude Code binary (as root, Claude Code needs IS_SANDBOX). */
export function claudeAcpCommand(box: Sandbox): AcpAgent {
  return {
    command: [process.execPath, CLAUDE_AGENT_ACP],
    env: { ...box.env, CLAUDE_CODE_EXECUTABLE: claudeBinary(), IS_SANDBOX: "1" },
  };
}

/**
 * OpenCode's native binary: PARLEY_OPENCODE_BIN, else the Linux x64 package pinned as an optional
 * dependency (opencode-ai itself is not pinned: it names a native package per platform, and a
 * lockfile that cannot list them all makes `npm ci` refuse to install).
 */
export const OPENCODE =
  process.env.PARLEY_OPENCODE_BIN ??
  join(ROOT, "node_modules", `opencode-${process.platform}-${process.arch}`, "bin", "opencode");
export const hasOpenCode = existsSync(OPENCODE);

/**
 * `opencode acp` with its Anthropic provider pointed at the local Messages API, asking before
 * every command and edit, and its own data in the sandbox's HOME. Nothing leaves the machine:
 * models.dev is not fetched, and the plugin installs OpenCode tries at start (from the npm
 * registry) go to a closed port and fail, which OpenCode shrugs off.
 */
export function openCodeCommand(box: Sandbox, modelBaseUrl: string): AcpAgent {
  const config = {
    model: "anthropic/claude-sonnet-4-5",
    autoupdate: false,
    share: "disabled",
    permission: { bash: "ask", edit: "ask" },
    provider: { anthropic: { options: { baseURL: `${modelBaseUrl}/v1`, apiKey: "sk-local-test" } } },
  };
  return {
    command: [OPENCODE, "acp"],
    env: {
      ...box.env,
      XDG_CONFIG_HOME: join(box.home, ".config"),
      XDG_DATA_HOME: join(box.home, ".local", "share"),
      XDG_CACHE_HOME: join(box.home, ".cache"),
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      // No file index or watcher: a third of OpenCode's CPU, and no test looks through the sandbox.
      OPENCODE_DISABLE_FFF: "1",
      OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER: "1",
      npm_config_registry: "http://127.0.0.1:9/",
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      NO_PROXY: "127.0.0.1,localhost",
    },
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
  agent: AcpAgent = claudeAcpCommand(box),
): {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  /** Resolves with the first match of `pattern` in stderr, as soon as it is printed. */
  stderrMatch: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  exit: Promise<number | null>;
  stop: () => Promise<void>;
} {
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
  const stderrMatch = (pattern: RegExp, timeoutMs = 120_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const settle = (error?: Error) => {
        const match = pattern.exec(stderr);
        if (!match && !error) return;
        clearTimeout(timer);
        child.stderr?.off("data", onData);
        child.off("exit", onExit);
        if (match) resolve(match);
        else reject(error);
      };
      const onData = () => settle();
      const onExit = () => settle(new Error(`parley acp exited before printing ${pattern}:\n${stderr}`));
      const timer = setTimeout(
        () => settle(new Error(`parley acp did not print ${pattern} in time:\n${stderr}`)),
        timeoutMs,
      );
      child.stderr?.on("data", onData);
      child.once("exit", onExit);
      settle();
    });
  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    stderrMatch,
    exit,
    stop: () => stopProxy(child, exit),
  };
}

/** Ends `parley acp` with SIGTERM (it stops its agent), or SIGKILL if it has not gone in 10 s. */
async function stopProxy(child: ChildProcess, exit: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exit;
  clearTimeout(timer);
}

export interface SeenPermission {
  params: RequestPermissionRequest;
  /** Answers in the editor with the option of this kind. */
  choose(kind: "allow_once" | "reject_once"): void;
  /** Resolves when `parley acp` cancels the request (`$/cancel_request`). */
  cancelled: Promise<void>;
  wasCancelled(): boolean;
}

export interface SeenElicitation {
  params: CreateElicitationRequest;
  answer(response: CreateElicitationResponse): void;
  /** Resolves when `parley acp` cancels the request (`$/cancel_request`). */
  cancelled: Promise<void>;
}

/**
 * An ACP client over `parley acp`'s stdio, holding one session in the sandbox. It advertises
 * `capabilities` (none by default) and records each elicitation it is asked.
 */
export class TestEditor {
  readonly seen: SeenPermission[] = [];
  readonly elicitations: SeenElicitation[] = [];
  /** Every `session/update` the agent (or `parley acp`) sent the editor, in order. */
  readonly updates: SessionNotification[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly connection: ClientConnection;
  sessionId = "";

  constructor(
    readonly proxy: ChildProcess,
    private readonly capabilities: ClientCapabilities = {},
  ) {
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
    app.onRequest(
      "elicitation/create",
      (ctx) =>
        new Promise<CreateElicitationResponse>((resolve) => {
          const cancelled = new Promise<void>((fire) =>
            ctx.signal.addEventListener(
              "abort",
              () => {
                fire();
                resolve({ action: "cancel" });
              },
              { once: true },
            ),
          );
          this.elicitations.push({ params: ctx.params, answer: resolve, cancelled });
        }),
    );
    app.onNotification("session/update", (ctx) => {
      this.updates.push(ctx.params);
    });
    this.connection = app.connect(stream);
  }

  /** Initializes and opens a session in `cwd`. */
  async open(cwd: string): Promise<string> {
    await this.connection.agent.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: this.capabilities,
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

  /** The text of the updates of one kind the editor was sent, joined (the agent's reply, the user's). */
  texts(kind: "agent_message_chunk" | "user_message_chunk"): string {
    return this.updates
      .map((notification) => notification.update)
      .filter((update) => update.sessionUpdate === kind)
      .map((update) => {
        const content = "content" in update ? update.content : null;
        return content && !Array.isArray(content) && content.type === "text" ? content.text : "";
      })
      .join("");
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

// What the Claude Code tests share: the real `claude` binary run offline against a local Messages
// API with its own HOME and config directory, an external session created the way a bridge
// creates it, and "the phone" — a typed client holding the owner's link that sees each card and
// answers it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { SessionClient } from "../../client/session-client";
import { buildShareUrl } from "../../client/session-link";
import { PROMPT_EVENT_TYPES, type SessionEvent } from "../../src/protocol/index";
import type { ModelServer } from "./claude-model-server";
import { gatewayToken } from "./harness";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const PARLEY_BIN = join(ROOT, "bin", "parley.mjs");

/** The native binary from the platform package (what the `claude` wrapper's postinstall copies). */
export function claudeBinary(): string {
  const platform = `${process.platform}-${process.arch}`;
  const direct = join(ROOT, "node_modules", "@anthropic-ai", `claude-code-${platform}`, "claude");
  return existsSync(direct) ? direct : join(ROOT, "node_modules", ".bin", "claude");
}

export const hasClaude = existsSync(claudeBinary());

/**
 * Checks that dist/ is there, so `bin/parley.mjs` runs the current sources: the browser suite's
 * global setup (test/e2e/global-setup.ts) builds it once for every file.
 */
export function buildBridges(): void {
  for (const file of ["parley-cli.js", "client.js", "agent-sdk.js"])
    if (!existsSync(join(ROOT, "dist", file)))
      throw new Error(`dist/${file} is missing: the browser suite's global setup builds dist/`);
}

export interface Sandbox {
  /** Working directory Claude Code runs in (files it creates land here). */
  cwd: string;
  home: string;
  configDir: string;
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

/** A fresh HOME, config dir and project dir; an environment that sends nothing off this machine. */
export async function sandbox(model: ModelServer): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), "parley-claude-"));
  const home = join(root, "home");
  const cwd = join(root, "project");
  const configDir = join(home, ".claude");
  await mkdir(configDir, { recursive: true });
  await mkdir(cwd, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: model.baseUrl,
    ANTHROPIC_API_KEY: "sk-local-test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    NO_COLOR: "1",
  };
  return { cwd, home, configDir, env, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface ClaudeRun {
  child: ChildProcess;
  stderr(): string;
  /** Resolves when Claude Code exits: its code and its `--output-format json` result. */
  done: Promise<{
    code: number | null;
    result: { result?: string; is_error?: boolean } | null;
    stdout: string;
  }>;
}

/** `claude -p <prompt> --output-format json …args` in the sandbox. */
export function runClaude(box: Sandbox, prompt: string, args: string[]): ClaudeRun {
  const child = spawn(claudeBinary(), ["-p", prompt, "--output-format", "json", ...args], {
    cwd: box.cwd,
    env: box.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; result: null; stdout: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, result: null, stdout })),
  ).then(({ code }) => {
    let result = null;
    try {
      result = JSON.parse(stdout);
    } catch {
      // Not JSON: the test shows stdout and stderr.
    }
    return { code, result, stdout: `${stdout}\n${stderr}` };
  });
  return { child, stderr: () => stderr, done };
}

/** An MCP config that runs `parley mcp` with these arguments. */
export async function mcpConfig(box: Sandbox, bridgeArgs: string[]): Promise<string> {
  const path = join(box.home, "parley-mcp.json");
  const config = {
    mcpServers: { parley: { command: process.execPath, args: [PARLEY_BIN, "mcp", ...bridgeArgs] } },
  };
  await writeFile(path, JSON.stringify(config));
  return path;
}

export interface ExternalSession {
  sessionId: string;
  /** The owner's token: what people (the phone) use. */
  token: string;
  shareUrl: string;
  /** The agent-role token a bridge (or the remote endpoint's bearer) uses. */
  agentToken: string;
  agentLink: string;
}

/** Creates (or finds, by key) an external session as a bridge would; the test keeps the owner's token. */
export async function externalSession(
  baseUrl: string,
  key: string,
  name = "Claude Code",
  token = gatewayToken(),
): Promise<ExternalSession> {
  // The person's: an external session needs a creator, and only a credential makes one.
  const response = await fetch(`${baseUrl}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ agent: { kind: "external", name, key } }),
  });
  if (!response.ok) throw new Error(`create external session: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as {
    sessionId: string;
    token: string;
    agentToken: string;
    agentLink: string;
  };
  return { ...body, shareUrl: buildShareUrl(baseUrl, body) };
}

/** Mints an agent key as the person (the holder of the server's GATEWAY_TOKEN) would in the inbox. */
export async function mintAgentKey(
  baseUrl: string,
  label = "e2e laptop",
  token = gatewayToken(),
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/agent-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ label }),
  });
  if (response.status !== 201) throw new Error(`mint agent key: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { key: string }).key;
}

/** How many cards a session has opened, from its event log: every kind of card, answered or not. */
export async function cardsOpened(
  baseUrl: string,
  session: { sessionId: string; token: string },
): Promise<number> {
  const response = await fetch(`${baseUrl}/api/sessions/${session.sessionId}/events?after=0`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const { events } = (await response.json()) as { events: Array<{ type: string }> };
  return events.filter((event) => (PROMPT_EVENT_TYPES as readonly string[]).includes(event.type)).length;
}

export interface PromptSeen {
  interactionId: string;
  type: string;
  data: Record<string, unknown>;
}

/** A person's device holding the owner's link: sees each card and answers it over HTTP. */
export class Phone {
  private readonly client: SessionClient;
  private readonly prompts: PromptSeen[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(
    private baseUrl: string,
    private readonly session: ExternalSession,
  ) {
    this.client = new SessionClient({
      baseUrl,
      sessionId: session.sessionId,
      token: session.token,
      deviceId: "phone",
    });
    this.client.on("events", (events: SessionEvent[]) => {
      for (const event of events) {
        const data = event.data as Record<string, unknown>;
        if (
          (PROMPT_EVENT_TYPES as readonly string[]).includes(event.type) &&
          typeof data.interactionId === "string"
        )
          this.prompts.push({ interactionId: data.interactionId, type: event.type, data });
      }
      for (const wake of this.waiters) wake();
    });
    this.client.connect();
  }

  /** The next card this phone has not yet returned, once it arrives. */
  async nextPrompt(timeoutMs = 30_000): Promise<PromptSeen> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const prompt = this.prompts.shift();
      if (prompt) return prompt;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no card reached the phone in time");
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

  /** Points the phone at a restarted server (same session, new origin is the same here). */
  retarget(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  /** Answers a card with the kind's own response, as the page's buttons do. */
  async respond(interactionId: string, response: unknown): Promise<void> {
    const result = await fetch(`${this.baseUrl}/api/sessions/${this.session.sessionId}/respond`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${this.session.token}`,
        "content-type": "application/json",
        "x-device-id": "phone",
      },
      body: JSON.stringify({ interactionId, response }),
    });
    if (!result.ok) throw new Error(`respond: ${result.status} ${await result.text()}`);
  }

  close(): void {
    this.client.close();
  }
}

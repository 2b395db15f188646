// The Claude Code configuration of docs/guide-bridges.md, taken from the guide as written (only the
// server's address and the session's credentials substituted, and `npx -y <gateway>/cli/parley.tgz`
// by the package that address serves, unpacked once) and run with the real `claude`: the `parley mcp`
// config, the hooks settings and the remote endpoint's config each get one command approved from the
// phone.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  type ClaudeRun,
  type ExternalSession,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  ROOT,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, reportLastResult, startModelServer, touch } from "./claude-model-server";
import { baseUrl } from "./harness";

const PERMISSION_TOOL = ["--permission-prompt-tool", "mcp__parley__approve"];

const GUIDE = "docs/guide-bridges.md";

/** The first ```json block after the guide's heading `heading`. */
async function guideJson(heading: string): Promise<string> {
  const guide = await readFile(join(ROOT, GUIDE), "utf8");
  const at = guide.indexOf(`\n### ${heading}\n`);
  if (at < 0) throw new Error(`${GUIDE} has no heading "### ${heading}"`);
  const block = /```json\n([\s\S]*?)\n```/.exec(guide.slice(at));
  if (!block?.[1]) throw new Error(`${GUIDE} has no json block under "${heading}"`);
  return block[1];
}

/**
 * The `parley` command as the suite's gateway serves it, unpacked as npx would unpack it: each hook
 * call then starts it without npx's own start (test/e2e/cli-package.test.ts runs npx itself).
 */
let packaged = "";
async function unpackServedCommand(): Promise<void> {
  packaged = await mkdtemp(join(tmpdir(), "parley-guide-cli-"));
  const tarball = await fetch(`${baseUrl()}/cli/parley.tgz`);
  await writeFile(join(packaged, "parley.tgz"), Buffer.from(await tarball.arrayBuffer()));
  execFileSync("tar", ["xzf", "parley.tgz"], { cwd: packaged });
}

/** The guide's text for this machine: the server, the command it serves, an agent key minted here. */
function localized(text: string, agentKey: string, session?: ExternalSession): string {
  const served = join(packaged, "package", "bin", "parley.mjs");
  let out = text
    .replaceAll(
      '"command": "npx",\n      "args": ["-y", "https://parley.example.com/cli/parley.tgz",',
      `"command": "node",\n      "args": [${JSON.stringify(served)},`,
    )
    .replaceAll("npx -y https://parley.example.com/cli/parley.tgz", `node ${served}`)
    .replaceAll("https://parley.example.com", baseUrl())
    .replaceAll("AGENT_KEY", agentKey);
  if (session)
    out = out.replaceAll("SESSION_ID", session.sessionId).replaceAll("AGENT_TOKEN", session.agentToken);
  if (/GATEWAY_TOKEN|SESSION_ID|AGENT_TOKEN|example\.com|\/path\/to|npx|parley\.tgz/.test(out))
    throw new Error(`a placeholder the test does not know is left in:\n${out}`);
  return out;
}

let model: ModelServer | undefined;
let box: Sandbox | undefined;
let phone: Phone | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  run?.child.kill("SIGKILL");
  phone?.close();
  await model?.close();
  await box?.remove();
  model = box = phone = run = undefined;
});

/**
 * Runs `claude` with `args(box, agentKey, session)` on a Bash call, approves its card from the
 * person's phone, checks the file. The bridge's side holds only the agent key (or, for the remote
 * endpoint, the agent token that key was given), as the guide says.
 */
async function approvedWith(
  file: string,
  args: (box: Sandbox, agentKey: string, session: ExternalSession) => Promise<string[]>,
): Promise<void> {
  const key = randomUUID();
  const session = await externalSession(baseUrl(), key);
  const agentKey = await mintAgentKey(baseUrl(), "guide recipe");
  // What the guide's curl gives the agent: the session found by its key, and the key's agent token.
  const created = await fetch(`${baseUrl()}/api/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${agentKey}`, "content-type": "application/json" },
    body: JSON.stringify({ agent: { kind: "external", name: "Claude Code", key } }),
  });
  const forAgent = (await created.json()) as { sessionId: string; agentToken: string; token?: string };
  expect(forAgent.sessionId).toBe(session.sessionId);
  expect(forAgent.token).toBeUndefined();
  phone = new Phone(baseUrl(), session);
  model = await startModelServer([touch(file), reportLastResult]);
  box = await sandbox(model);
  const asAgent = { ...session, agentToken: forAgent.agentToken };
  run = runClaude(box, "Make the file.", [...(await args(box, agentKey, asAgent)), "--session-id", key]);
  const card = await phone.nextPrompt();
  expect(JSON.stringify(card.data)).toContain(`touch ${file}`);
  await phone.respond(card.interactionId, { decision: "approve" });
  const { code, stdout } = await run.done;
  expect(code, stdout).toBe(0);
  expect(existsSync(join(box.cwd, file))).toBe(true);
}

describe.skipIf(!hasChromium || !hasClaude)(
  "the bridges guide's Claude Code configuration, as written",
  () => {
    beforeAll(() => unpackServedCommand());
    afterAll(() => rm(packaged, { recursive: true, force: true }));

    it("parley.json runs parley mcp as Claude Code's permission prompt", { timeout: 60_000 }, async () => {
      await approvedWith("guide-mcp.txt", async (sandboxed, agentKey) => {
        const path = join(sandboxed.home, "parley.json");
        await writeFile(path, localized(await guideJson("`claude` with `parley mcp`"), agentKey));
        return ["--mcp-config", path, ...PERMISSION_TOOL];
      });
    });

    it("the settings' hooks run parley hook as Claude Code's PermissionRequest hook", {
      timeout: 60_000,
    }, async () => {
      await approvedWith("guide-hook.txt", async (sandboxed, agentKey) => {
        const path = join(sandboxed.home, "settings.json");
        await writeFile(path, localized(await guideJson("`claude` with `parley hook`"), agentKey));
        return ["--settings", path];
      });
    });

    it("parley-remote.json points Claude Code at the Worker's own MCP endpoint", {
      timeout: 60_000,
    }, async () => {
      await approvedWith("guide-remote.txt", async (sandboxed, agentKey, session) => {
        const path = join(sandboxed.home, "parley-remote.json");
        const json = await guideJson("`claude` with the remote endpoint (no local process)");
        await writeFile(path, localized(json, agentKey, session));
        return ["--mcp-config", path, ...PERMISSION_TOOL];
      });
    });
  },
);

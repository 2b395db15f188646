// A Parley restart in the middle of Claude Code's wait loses nothing: `wrangler dev` is stopped
// while a card is open and started again on the same state and port; the answer given after the
// restart reaches Claude Code through `parley mcp` and through `parley hook`.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, freePort, startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ClaudeRun,
  externalSession,
  hasClaude,
  mcpConfig,
  Phone,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { hookSettings } from "./claude-code-hook-settings";
import { type ModelServer, reportLastResult, startModelServer, touch } from "./claude-model-server";

let model: ModelServer | undefined;
let box: Sandbox | undefined;
let phone: Phone | undefined;
let run: ClaudeRun | undefined;
let server: DevServer | undefined;
let state = "";
afterEach(async () => {
  run?.child.kill("SIGKILL");
  phone?.close();
  await server?.stop();
  await model?.close();
  await box?.remove();
  if (state) await rm(state, { recursive: true, force: true });
  model = box = phone = run = server = undefined;
  state = "";
});

/** Runs Claude Code with the bridge `args` builds, restarts Parley while the card waits, then approves. */
async function approveAcrossRestart(
  file: string,
  claudeArgs: (box: Sandbox, baseUrl: string) => Promise<string[]>,
) {
  state = await mkdtemp(join(tmpdir(), "parley-claude-restart-"));
  const port = await freePort();
  server = await startWranglerDev({ label: "claude-restart-1", persistTo: state, port });
  const key = randomUUID();
  const session = await externalSession(server.baseUrl, key);
  phone = new Phone(server.baseUrl, session);
  model = await startModelServer([touch(file), reportLastResult]);
  box = await sandbox(model);
  run = runClaude(box, "Make the file.", [...(await claudeArgs(box, server.baseUrl)), "--session-id", key]);
  const card = await phone.nextPrompt();

  await server.stop();
  server = await startWranglerDev({ label: "claude-restart-2", persistTo: state, port });
  await phone.respond(card.interactionId, { decision: "approve" });
  const { code, stdout } = await run.done;
  expect(code, stdout).toBe(0);
  expect(existsSync(join(box.cwd, file))).toBe(true);
  expect(model.toolResults().at(-1)).toContain("Bash completed with no output");
}

describe.skipIf(!hasChromium || !hasClaude)("Claude Code waiting on Parley across a restart", () => {
  beforeAll(() => buildBridges());

  it("finishes with the answer given after the restart, through parley mcp", {
    timeout: 150_000,
  }, async () => {
    await approveAcrossRestart("after-restart.txt", async (sandboxed, baseUrl) => [
      "--mcp-config",
      await mcpConfig(sandboxed, ["--server", baseUrl]),
      "--permission-prompt-tool",
      "mcp__parley__approve",
    ]);
  });

  it("finishes with the answer given after the restart, through parley hook", {
    timeout: 150_000,
  }, async () => {
    await approveAcrossRestart("hook-restart.txt", async (sandboxed, baseUrl) => [
      "--settings",
      await hookSettings(sandboxed, ["--server", baseUrl]),
    ]);
  });
});

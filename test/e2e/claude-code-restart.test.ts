// A Parley restart in the middle of Claude Code's wait loses nothing: `wrangler dev` is stopped
// while a card is open and started again on the same state and port; the answer given after the
// restart reaches Claude Code through `parley mcp` and through `parley hook`.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ClaudeRun,
  externalSession,
  hasClaude,
  mcpConfig,
  mintAgentKey,
  Phone,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { hookLog, hookSettings } from "./claude-code-hook-settings";
import { type ModelServer, reportLastResult, startModelServer, touch } from "./claude-model-server";

interface Waiting {
  phone: Phone;
  model: ModelServer;
  box: Sandbox;
  run: ClaudeRun;
  file: string;
}
const waiting: Waiting[] = [];
let server: DevServer | undefined;
let state = "";
afterEach(async () => {
  for (const one of waiting) {
    one.run.child.kill("SIGKILL");
    one.phone.close();
    await one.model.close();
    await one.box.remove();
  }
  waiting.length = 0;
  await server?.stop();
  if (state) await rm(state, { recursive: true, force: true });
  server = undefined;
  state = "";
});

/** Starts Claude Code with the bridge `claudeArgs` configures, in its own session; returns once its card is up. */
async function startWaiting(
  server: DevServer,
  file: string,
  claudeArgs: (box: Sandbox) => Promise<string[]>,
): Promise<{ one: Waiting; interactionId: string }> {
  const baseUrl = server.baseUrl;
  const key = randomUUID();
  const session = await externalSession(baseUrl, key, "Claude Code", server.gatewayToken);
  const phone = new Phone(baseUrl, session);
  const model = await startModelServer([touch(file), reportLastResult]);
  const box = await sandbox(model);
  const run = runClaude(box, "Make the file.", [...(await claudeArgs(box)), "--session-id", key]);
  const one = { phone, model, box, run, file };
  waiting.push(one);
  const card = await phone.nextPrompt();
  return { one, interactionId: card.interactionId };
}

describe.skipIf(!hasChromium || !hasClaude)("Claude Code waiting on Parley across a restart", () => {
  beforeAll(() => buildBridges());

  // One more try: on a loaded machine about one run in four saw Claude Code get no decision from the
  // hook after the restart, for a cause not yet found (the failure message shows the hook's stderr).
  it("finishes with the answer given after the restart, through parley mcp and through parley hook", {
    timeout: 180_000,
    retry: 1,
  }, async () => {
    state = await mkdtemp(join(tmpdir(), "parley-claude-restart-"));
    server = await startWranglerDev({ label: "claude-restart-1", persistTo: state });
    // The restart serves the same address, the one the bridges were given.
    const port = Number(new URL(server.baseUrl).port);
    const baseUrl = server.baseUrl;
    // The bridges' credential: an agent key of this server's person, which cannot answer.
    const agentKey = await mintAgentKey(baseUrl, "restart e2e", server.gatewayToken);
    const viaMcp = await startWaiting(server, "via-mcp.txt", async (box) => [
      "--mcp-config",
      await mcpConfig(box, ["--server", baseUrl, "--agent-key", agentKey]),
      "--permission-prompt-tool",
      "mcp__parley__approve",
    ]);
    const viaHook = await startWaiting(server, "via-hook.txt", async (box) => [
      "--settings",
      // The restart may begin before the hook has read the answer to opening its card; it keeps
      // retrying (with the same key, so the same card) for as long as this allows.
      await hookSettings(box, ["--server", baseUrl, "--agent-key", agentKey, "--unreachable-seconds", "120"]),
    ]);

    await server.stop();
    server = await startWranglerDev({ label: "claude-restart-2", persistTo: state, port });
    for (const { one, interactionId } of [viaMcp, viaHook]) {
      await one.phone.respond(interactionId, { decision: "approve" });
    }
    for (const { one } of [viaMcp, viaHook]) {
      const { code, stdout } = await one.run.done;
      expect(code, stdout).toBe(0);
      const said = await readFile(hookLog(one.box), "utf8").catch(() => "");
      const why = `${one.file}: ${one.model.toolResults().join("\n")}\n${said}`;
      expect(existsSync(join(one.box.cwd, one.file)), why).toBe(true);
      expect(one.model.toolResults().at(-1)).toContain("Bash completed with no output");
    }
  });
});

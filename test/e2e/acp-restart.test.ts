// A Parley restart in the middle of `parley acp`'s wait loses nothing: `wrangler dev` is stopped
// while the card is open and started again on the same state and port; the answer given after the
// restart reaches claude-agent-acp, and the editor's own request is cancelled.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, freePort, startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import { removeSandbox, spawnParleyAcp, TestEditor } from "./acp-harness";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  sandbox,
} from "./claude-code-harness";
import { reportLastResult, startModelServer, touch } from "./claude-model-server";

const cleanups: Array<() => Promise<void> | void> = [];
let server: DevServer | undefined;
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await server?.stop();
  server = undefined;
});

describe.skipIf(!hasChromium || !hasClaude)("parley acp waiting on Parley across a restart", () => {
  beforeAll(() => buildBridges());

  it("answers the agent with the approval given after the restart", { timeout: 180_000 }, async () => {
    const state = await mkdtemp(join(tmpdir(), "parley-acp-restart-"));
    cleanups.push(() => rm(state, { recursive: true, force: true }));
    const port = await freePort();
    server = await startWranglerDev({ label: "acp-restart-1", persistTo: state, port });
    const baseUrl = server.baseUrl;
    const model = await startModelServer([touch("after-restart.txt"), reportLastResult]);
    const box = await sandbox(model);
    const agentKey = await mintAgentKey(baseUrl, "acp restart", server.gatewayToken);
    const proxy = spawnParleyAcp(box, [
      "--server",
      baseUrl,
      "--agent-key",
      agentKey,
      "--unreachable-seconds",
      "120",
    ]);
    cleanups.push(async () => {
      await proxy.stop();
      await model.close();
      await removeSandbox(box);
    });
    const editor = new TestEditor(proxy.child);
    cleanups.push(() => editor.close());
    const sessionId = await editor.open(box.cwd);
    const turn = editor.prompt("Make the file.");
    const asked = await editor.nextPermission();
    const session = await externalSession(baseUrl, sessionId, "Claude Agent", server.gatewayToken);
    const phone = new Phone(baseUrl, session);
    cleanups.push(() => phone.close());
    const card = await phone.nextPrompt();

    await server.stop();
    server = await startWranglerDev({ label: "acp-restart-2", persistTo: state, port });
    await phone.respond(card.interactionId, { decision: "approve" });
    await asked.cancelled;
    expect((await turn).stopReason, proxy.stderr()).toBe("end_turn");
    expect(existsSync(join(box.cwd, "after-restart.txt"))).toBe(true);
    expect(model.toolResults().at(-1)).toContain("completed with no output");
  });
});

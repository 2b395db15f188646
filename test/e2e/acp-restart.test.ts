// A Parley restart in the middle of `parley acp`'s wait loses nothing: `wrangler dev` is stopped
// while the card is open and started again on the same state and port; the answer given after the
// restart reaches claude-agent-acp, and the editor's own request is cancelled.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/wrangler-dev.mjs";
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
    // A run that outlives the time limit says which step it was in and what the bridge printed.
    const steps: string[] = [];
    let bridgeOutput = () => "";
    const started = Date.now();
    const step = async <T>(name: string, work: Promise<T>): Promise<T> => {
      steps.push(`${name} (from ${Date.now() - started} ms)`);
      return work;
    };
    onTestFailed(() => console.error(`steps:\n${steps.join("\n")}\nparley acp:\n${bridgeOutput()}`));
    const state = await mkdtemp(join(tmpdir(), "parley-acp-restart-"));
    cleanups.push(() => rm(state, { recursive: true, force: true }));
    server = await step("first start", startWranglerDev({ label: "acp-restart-1", persistTo: state }));
    // The restart serves the same address, the one the bridges were given.
    const port = Number(new URL(server.baseUrl).port);
    const baseUrl = server.baseUrl;
    const model = await startModelServer([touch("after-restart.txt"), reportLastResult]);
    const box = await sandbox(model);
    const agentKey = await step("agent key", mintAgentKey(baseUrl, "acp restart", server.gatewayToken));
    const proxy = spawnParleyAcp(box, [
      "--server",
      baseUrl,
      "--agent-key",
      agentKey,
      "--unreachable-seconds",
      "120",
    ]);
    bridgeOutput = () => proxy.stderr();
    cleanups.push(async () => {
      await proxy.stop();
      await model.close();
      await removeSandbox(box);
    });
    const editor = new TestEditor(proxy.child);
    cleanups.push(() => editor.close());
    const sessionId = await step("editor opens", editor.open(box.cwd));
    const turn = editor.prompt("Make the file.");
    const asked = await step("permission asked", editor.nextPermission());
    const session = await step(
      "session found",
      externalSession(baseUrl, sessionId, "Claude Agent", server.gatewayToken),
    );
    const phone = new Phone(baseUrl, session);
    cleanups.push(() => phone.close());
    const card = await step("card on the phone", phone.nextPrompt());

    await step("stop", server.stop());
    server = await step("second start", startWranglerDev({ label: "acp-restart-2", persistTo: state, port }));
    await step("answer", phone.respond(card.interactionId, { decision: "approve" }));
    await step("editor's request cancelled", asked.cancelled);
    expect((await step("turn ends", turn)).stopReason, proxy.stderr()).toBe("end_turn");
    expect(existsSync(join(box.cwd, "after-restart.txt"))).toBe(true);
    expect(model.toolResults().at(-1)).toContain("completed with no output");
  });
});

// `parley acp` in front of OpenCode (`opencode acp`), run offline against the local Messages API:
// the same proxy and headless client work for an ACP agent that is not Claude Code.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { hasOpenCode, openCodeCommand, removeSandbox, spawnParleyAcp, TestEditor } from "./acp-harness";
import { hasChromium } from "./browser-env";
import { buildBridges, externalSession, mintAgentKey, Phone, sandbox } from "./claude-code-harness";

// One agent key for the file's runs: a bridge starts only with a credential that cannot answer.
let key: Promise<string> | undefined;
const agentKey = () => (key ??= mintAgentKey(inject("baseUrl"), "opencode e2e"));

import { reportLastResult, startModelServer, touch } from "./claude-model-server";

const baseUrl = () => inject("baseUrl");
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(file: string, args: string[], headless: boolean) {
  const model = await startModelServer([touch(file), reportLastResult]);
  const box = await sandbox(model);
  const proxy = spawnParleyAcp(
    box,
    ["--server", baseUrl(), "--agent-key", await agentKey(), ...args],
    headless,
    openCodeCommand(box, model.baseUrl),
  );
  cleanups.push(async () => {
    await proxy.stop();
    await model.close();
    await removeSandbox(box);
  });
  return { model, box, proxy };
}

async function phone(acpSession: string) {
  const session = await externalSession(baseUrl(), acpSession, "OpenCode");
  const found = new Phone(baseUrl(), session);
  cleanups.push(() => found.close());
  return { device: found, session };
}

describe.skipIf(!hasChromium || !hasOpenCode)("parley acp with OpenCode", () => {
  beforeAll(() => buildBridges());

  it("runs the command approved from a Parley device and cancels the editor's request", {
    timeout: 240_000,
  }, async () => {
    const { box, proxy } = await start("opencode.txt", [], false);
    const editor = new TestEditor(proxy.child);
    cleanups.push(() => editor.close());
    const sessionId = await editor.open(box.cwd);
    const turn = editor.prompt("Make the file.");
    const asked = await editor.nextPermission();
    const { device } = await phone(sessionId);
    const card = await device.nextPrompt();
    expect(card.data.request).toMatchObject({ acp: { kind: "execute", allowAlways: true } });
    await device.respond(card.interactionId, { decision: "approve" });
    await asked.cancelled;
    expect((await turn).stopReason).toBe("end_turn");
    expect(existsSync(join(box.cwd, "opencode.txt")), proxy.stderr()).toBe(true);
  });

  // OpenCode takes half a minute to start here, its plugin installs failing against a closed port.
  it("headless, runs the approved command, stays for messages, and exits 0 once the person stops the session", {
    timeout: 240_000,
  }, async () => {
    const { box, proxy } = await start("opencode-headless.txt", ["--prompt", "Make the file."], true);
    let acpSession = "";
    await expect
      .poll(
        () => {
          acpSession = /ACP session (\S+) asks in Parley/.exec(proxy.stderr())?.[1] ?? "";
          return acpSession;
        },
        { timeout: 120_000 },
      )
      .not.toBe("");
    const { device, session } = await phone(acpSession);
    const card = await device.nextPrompt(60_000);
    await device.respond(card.interactionId, { decision: "approve" });
    await expect.poll(() => proxy.stdout(), { timeout: 120_000 }).toContain("Finished.");
    // The run stays for the person's messages until they stop the session.
    expect(proxy.child.exitCode).toBe(null);
    const stopped = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(stopped.status).toBe(200);
    expect(await proxy.exit, proxy.stderr()).toBe(0);
    expect(existsSync(join(box.cwd, "opencode-headless.txt"))).toBe(true);
    expect(proxy.stdout()).toContain("Finished.");
  });
});

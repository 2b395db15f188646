// `parley acp --prompt` with no editor: it is claude-agent-acp's only client, so each permission
// is asked in Parley alone, the agent's text goes to stdout and the exit code follows the turn.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { removeSandbox, spawnParleyAcp } from "./acp-harness";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  sandbox,
} from "./claude-code-harness";

// One agent key for the file's runs: a bridge starts only with a credential that cannot answer.
let key: Promise<string> | undefined;
const agentKey = () => (key ??= mintAgentKey(inject("baseUrl"), "acp headless e2e"));

import { reportLastResult, startModelServer, touch } from "./claude-model-server";

const baseUrl = () => inject("baseUrl");
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function headless(file: string, server: string) {
  const model = await startModelServer([touch(file), reportLastResult]);
  const box = await sandbox(model);
  const run = spawnParleyAcp(
    box,
    [
      "--server",
      server,
      "--agent-key",
      await agentKey(),
      "--unreachable-seconds",
      "2",
      "--prompt",
      "Make the file.",
    ],
    true,
  );
  cleanups.push(async () => {
    await run.stop();
    await model.close();
    await removeSandbox(box);
  });
  return { model, box, run };
}

describe.skipIf(!hasChromium || !hasClaude)("parley acp --prompt, with no editor", () => {
  beforeAll(() => buildBridges());

  it("exits 0 after the command approved from a Parley device ran, printing the agent's text", {
    timeout: 120_000,
  }, async () => {
    const { box, run } = await headless("headless.txt", baseUrl());
    let acpSession = "";
    await expect
      .poll(
        () => {
          acpSession = /ACP session (\S+) asks in Parley/.exec(run.stderr())?.[1] ?? "";
          return acpSession;
        },
        { timeout: 60_000 },
      )
      .not.toBe("");
    const phone = new Phone(baseUrl(), await externalSession(baseUrl(), acpSession, "Claude Agent"));
    cleanups.push(() => phone.close());
    const card = await phone.nextPrompt(60_000);
    await phone.respond(card.interactionId, { decision: "approve" });
    expect(await run.exit, run.stderr()).toBe(0);
    expect(existsSync(join(box.cwd, "headless.txt"))).toBe(true);
    expect(run.stdout()).toContain("Creating headless.txt.");
    expect(run.stdout()).toContain("Finished.");
  });

  it("denies the request, saying why, when Parley cannot be reached", { timeout: 120_000 }, async () => {
    const { box, run, model } = await headless("unasked.txt", "http://127.0.0.1:9");
    await run.exit;
    expect(run.stderr()).toMatch(/Parley could not be reached: [^\n]*; the request is denied/);
    expect(existsSync(join(box.cwd, "unasked.txt"))).toBe(false);
    expect(model.toolResults().join("\n")).not.toContain("completed with no output");
  });
});

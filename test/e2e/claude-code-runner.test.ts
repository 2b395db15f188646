// `parley claude-code`: the real Claude Code CLI, offline against the stand-in Messages API, run
// headless for a Parley session: each message the person sends continues the same Claude Code
// session (`claude -p --resume`), so the model sees the earlier turns.
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { removeSandbox } from "./acp-harness";
import {
  buildBridges,
  claudeBinary,
  externalSession,
  hasClaude,
  PARLEY_BIN,
  sandbox,
} from "./claude-code-harness";
import { type ScriptStep, startModelServer } from "./claude-model-server";
import { baseUrl } from "./harness";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const said = (text: string): ScriptStep => ({ content: [{ type: "text", text }] });

describe.skipIf(!hasClaude)("parley claude-code", () => {
  beforeAll(() => buildBridges());

  it("continues the same Claude Code session with each message, the earlier turns in the model's request", {
    timeout: 300_000,
  }, async () => {
    const model = await startModelServer([said("First answer."), said("Second answer.")]);
    const box = await sandbox(model);
    const session = await externalSession(baseUrl(), `runner-${Date.now()}`, "Claude Code");
    const child: ChildProcess = spawn(
      process.execPath,
      [PARLEY_BIN, "claude-code", "--prompt", "Remember the word PELICAN.", "--", claudeBinary()],
      {
        cwd: box.cwd,
        env: { ...box.env, IS_SANDBOX: "1", PARLEY_LINK: session.agentLink },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    cleanups.push(async () => {
      if (process.env.PARLEY_E2E_DEBUG) console.error(`runner stdout:\n${stdout}\nrunner stderr:\n${stderr}`);
      if (child.exitCode === null) child.kill("SIGTERM");
      await exit;
      await model.close();
      await removeSandbox(box);
    });
    await expect.poll(() => stdout, { timeout: 120_000 }).toContain("First answer.");

    const sent = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "Which word did I ask you to remember?" }),
    });
    expect(sent.status).toBe(202);
    await expect.poll(() => stdout, { timeout: 120_000 }).toContain("Second answer.");
    const followUp = model
      .mainRequests()
      .find((request) => JSON.stringify(request.body.messages).includes("Which word did I ask"));
    const turns = JSON.stringify(followUp?.body.messages);
    expect(turns, stderr).toContain("Remember the word PELICAN.");
    expect(turns).toContain("First answer.");

    const cancelled = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(cancelled.status).toBe(200);
    expect(await exit, stderr).toBe(0);
  });
});

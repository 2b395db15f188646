// The real Claude Code CLI (`claude -p`) with `parley mcp` as its permission-prompt tool, against
// `wrangler dev`: each request reaches the person's devices as a card, and their answer — approve,
// deny with a reason, an edited command, a chosen label, a plan approval — is what Claude Code does.
// One run takes the first four in turn, one tool call each.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mcpConfig,
  mintAgentKey,
  Phone,
  runClaude,
  sandbox,
} from "./claude-code-harness";
import {
  planFilePathOf,
  reportLastResult,
  type ScriptStep,
  startModelServer,
  touch,
  touchId,
} from "./claude-model-server";
import { baseUrl, launchBrowser, openDevice } from "./harness";

const PERMISSION_TOOL = ["--permission-prompt-tool", "mcp__parley__approve"];

const askColor: ScriptStep = {
  content: [
    {
      type: "tool_use",
      id: "toolu_ask_color",
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question: "Which color should the banner be?",
            header: "Color",
            multiSelect: false,
            options: [
              { label: "Teal", description: "Calm" },
              { label: "Amber", description: "Warm" },
            ],
          },
        ],
      },
    },
  ],
};

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * One Claude Code run through `parley mcp --server --agent-key`, in the session keyed by its
 * session id; the person (who holds the owner's token, as their inbox would give it) answers.
 */
async function start(script: ScriptStep[], extraArgs: string[] = []) {
  const key = randomUUID();
  const session = await externalSession(baseUrl(), key);
  const phone = new Phone(baseUrl(), session);
  const model = await startModelServer(script);
  const box = await sandbox(model);
  const config = await mcpConfig(box, ["--server", baseUrl(), "--agent-key", await mintAgentKey(baseUrl())]);
  const run = runClaude(box, "Do the task.", [
    "--mcp-config",
    config,
    ...PERMISSION_TOOL,
    "--session-id",
    key,
    ...extraArgs,
  ]);
  cleanups.push(async () => {
    run.child.kill("SIGKILL");
    phone.close();
    await model.close();
    await box.remove();
  });
  return { session, phone, model, box, run };
}

describe.skipIf(!hasChromium || !hasClaude)("Claude Code with parley mcp as its permission prompt", () => {
  let browser: Browser;
  // One run takes the person's decisions in turn, one tool call each: approve, deny with a reason,
  // approve an edited command, choose a label. Plan mode and an unreachable Parley run their own.
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    buildBridges();
    [browser, t] = await Promise.all([
      launchBrowser(),
      start([touch("made.txt"), touch("denied.txt"), touch("asked.txt"), askColor, reportLastResult]),
    ]);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("runs the command once the phone approves the card that every device shows", {
    timeout: 150_000,
  }, async () => {
    // The first card waits for Claude Code to start, which a busy machine slows down.
    const card = await t.phone.nextPrompt(120_000);
    expect(JSON.stringify(card.data)).toContain("touch made.txt");
    const laptop = await openDevice(browser, t.session, "laptop");
    await laptop.getByText("touch made.txt").first().waitFor();
    expect(existsSync(join(t.box.cwd, "made.txt"))).toBe(false);

    await t.phone.respond(card.interactionId, { decision: "approve" });
    await expect
      .poll(() => t.model.toolResultFor(touchId("made.txt")))
      .toContain("Bash completed with no output");
    expect(existsSync(join(t.box.cwd, "made.txt"))).toBe(true);
    await laptop.context().close();
  });

  it("does not run a denied command, and the model reads the person's reason", {
    timeout: 60_000,
  }, async () => {
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch denied.txt");
    await t.phone.respond(card.interactionId, { decision: "deny", reason: "Not in this folder, please" });
    await expect
      .poll(() => t.model.toolResultFor(touchId("denied.txt")))
      .toContain("Not in this folder, please");
    expect(existsSync(join(t.box.cwd, "denied.txt"))).toBe(false);
  });

  it("runs the command as the person edited it before approving", { timeout: 60_000 }, async () => {
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch asked.txt");
    await t.phone.respond(card.interactionId, {
      decision: "approve",
      updatedInput: { command: "touch edited.txt", description: "Create edited.txt instead" },
    });
    await expect.poll(() => t.model.toolResultFor(touchId("asked.txt"))).toBeDefined();
    expect(existsSync(join(t.box.cwd, "edited.txt"))).toBe(true);
    expect(existsSync(join(t.box.cwd, "asked.txt"))).toBe(false);
  });

  it("hands the label the person chose back to the model for AskUserQuestion", {
    timeout: 60_000,
  }, async () => {
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("Which color should the banner be?");
    await t.phone.respond(card.interactionId, { answers: { "Which color should the banner be?": "Amber" } });
    const { code, stdout } = await t.run.done;
    expect(code, stdout).toBe(0);
    expect(t.model.toolResultFor("toolu_ask_color")).toContain('"Which color should the banner be?"="Amber"');
  });

  it("shows the plan Claude Code wrote on the plan card, and approving it leaves plan mode", {
    timeout: 150_000,
  }, async () => {
    const writePlan: ScriptStep = (body) => ({
      content: [
        {
          type: "tool_use",
          id: "toolu_write_plan",
          name: "Write",
          input: {
            file_path: planFilePathOf(body) ?? "missing-plan-path.md",
            content: "# Banner plan\n\n1. Create banner.txt in the project folder.\n",
          },
        },
      ],
    });
    const exitPlan: ScriptStep = {
      content: [{ type: "tool_use", id: "toolu_exit_plan", name: "ExitPlanMode", input: {} }],
    };
    const plan = await start([writePlan, exitPlan, reportLastResult], ["--permission-mode", "plan"]);
    const card = await plan.phone.nextPrompt(120_000);
    expect(JSON.stringify(card.data)).toContain("Create banner.txt in the project folder.");
    await plan.phone.respond(card.interactionId, { choice: "accept_edits" });
    const { code, stdout } = await plan.run.done;
    expect(code, stdout).toBe(0);
    expect(plan.model.toolResultFor("toolu_exit_plan")).toMatch(/approved/i);
  });

  it("denies with a message saying Parley could not be reached when it stays away", {
    timeout: 120_000,
  }, async () => {
    const model = await startModelServer([touch("unreachable.txt"), reportLastResult]);
    const box = await sandbox(model);
    const closed = `http://127.0.0.1:${await freePort()}`;
    // A key the closed address never checks: the bridge starts only with a credential that cannot answer.
    const agentKey = await mintAgentKey(baseUrl(), "mcp unreachable e2e");
    const config = await mcpConfig(box, [
      "--server",
      closed,
      "--agent-key",
      agentKey,
      "--unreachable-seconds",
      "1",
    ]);
    const run = runClaude(box, "Do the task.", ["--mcp-config", config, ...PERMISSION_TOOL]);
    cleanups.push(async () => {
      run.child.kill("SIGKILL");
      await model.close();
      await box.remove();
    });
    const { code, stdout } = await run.done;
    expect(code, stdout).toBe(0);
    expect(existsSync(join(box.cwd, "unreachable.txt"))).toBe(false);
    expect(model.toolResultFor(touchId("unreachable.txt"))).toContain("Parley could not be reached");
  });
});

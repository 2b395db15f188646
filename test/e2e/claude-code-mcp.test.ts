// The real Claude Code CLI (`claude -p`) with `parley mcp` as its permission-prompt tool, against
// `wrangler dev`: each request reaches the person's devices as a card, and their answer — approve,
// deny with a reason, an edited command, a chosen label, a plan approval — is what Claude Code does.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/wrangler-dev.mjs";
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
import {
  type ModelServer,
  planFilePathOf,
  reportLastResult,
  type ScriptStep,
  startModelServer,
  touch,
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
 * One Claude Code run through `parley mcp --server --agent-key`, in the session keyed by its
 * session id; the person (who holds the owner's token, as their inbox would give it) answers.
 */
async function start(script: ScriptStep[], extraArgs: string[] = []) {
  const key = randomUUID();
  const session = await externalSession(baseUrl(), key);
  phone = new Phone(baseUrl(), session);
  model = await startModelServer(script);
  box = await sandbox(model);
  const config = await mcpConfig(box, ["--server", baseUrl(), "--agent-key", await mintAgentKey(baseUrl())]);
  run = runClaude(box, "Do the task.", [
    "--mcp-config",
    config,
    ...PERMISSION_TOOL,
    "--session-id",
    key,
    ...extraArgs,
  ]);
  return { session, phone, model, box, run };
}

function lastToolResult(server: ModelServer): string {
  return server.toolResults().at(-1) ?? "";
}

describe.skipIf(!hasChromium || !hasClaude)("Claude Code with parley mcp as its permission prompt", () => {
  let browser: Browser;
  beforeAll(async () => {
    buildBridges();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("runs the command once the phone approves the card that every device shows", {
    timeout: 60_000,
  }, async () => {
    const t = await start([touch("made.txt"), reportLastResult]);
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch made.txt");
    const laptop = await openDevice(browser, t.session, "laptop");
    await laptop.getByText("touch made.txt").first().waitFor();
    expect(existsSync(join(t.box.cwd, "made.txt"))).toBe(false);

    await t.phone.respond(card.interactionId, { decision: "approve" });
    const { code, result, stdout } = await t.run.done;
    expect(code, stdout).toBe(0);
    expect(existsSync(join(t.box.cwd, "made.txt"))).toBe(true);
    expect(result?.result).toContain("Bash completed with no output");
    await laptop.context().close();
  });

  it("does not run a denied command, and the model reads the person's reason", {
    timeout: 60_000,
  }, async () => {
    const t = await start([touch("denied.txt"), reportLastResult]);
    const card = await t.phone.nextPrompt();
    await t.phone.respond(card.interactionId, { decision: "deny", reason: "Not in this folder, please" });
    const { code, stdout } = await t.run.done;
    expect(code, stdout).toBe(0);
    expect(existsSync(join(t.box.cwd, "denied.txt"))).toBe(false);
    expect(lastToolResult(t.model)).toContain("Not in this folder, please");
  });

  it("runs the command as the person edited it before approving", { timeout: 60_000 }, async () => {
    const t = await start([touch("asked.txt"), reportLastResult]);
    const card = await t.phone.nextPrompt();
    await t.phone.respond(card.interactionId, {
      decision: "approve",
      updatedInput: { command: "touch edited.txt", description: "Create edited.txt instead" },
    });
    const { code, stdout } = await t.run.done;
    expect(code, stdout).toBe(0);
    expect(existsSync(join(t.box.cwd, "edited.txt"))).toBe(true);
    expect(existsSync(join(t.box.cwd, "asked.txt"))).toBe(false);
  });

  it("hands the label the person chose back to the model for AskUserQuestion", {
    timeout: 60_000,
  }, async () => {
    const t = await start([askColor, reportLastResult]);
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("Which color should the banner be?");
    await t.phone.respond(card.interactionId, { answers: { "Which color should the banner be?": "Amber" } });
    const { code, stdout } = await t.run.done;
    expect(code, stdout).toBe(0);
    expect(lastToolResult(t.model)).toContain('"Which color should the banner be?"="Amber"');
  });

  it("shows the plan Claude Code wrote on the plan card, and approving it leaves plan mode", {
    timeout: 60_000,
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
    const t = await start([writePlan, exitPlan, reportLastResult], ["--permission-mode", "plan"]);
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("Create banner.txt in the project folder.");
    await t.phone.respond(card.interactionId, { choice: "accept_edits" });
    const { code, stdout } = await t.run.done;
    expect(code, stdout).toBe(0);
    expect(lastToolResult(t.model)).toMatch(/approved/i);
  });

  it("denies with a message saying Parley could not be reached when it stays away", {
    timeout: 60_000,
  }, async () => {
    model = await startModelServer([touch("unreachable.txt"), reportLastResult]);
    box = await sandbox(model);
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
    run = runClaude(box, "Do the task.", ["--mcp-config", config, ...PERMISSION_TOOL]);
    const { code, stdout } = await run.done;
    expect(code, stdout).toBe(0);
    expect(existsSync(join(box.cwd, "unreachable.txt"))).toBe(false);
    expect(lastToolResult(model)).toContain("Parley could not be reached");
  });
});

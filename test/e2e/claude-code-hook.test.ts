// The real Claude Code CLI with `parley hook` as its PermissionRequest hook (through `--settings`)
// against `wrangler dev`: the person approves, denies with a reason or edits the command from the
// phone; the progress hooks show the prompt and the finished tool; an unreachable Parley hands the
// request back to Claude Code instead of allowing it.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ClaudeRun,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { hookSettings } from "./claude-code-hook-settings";
import {
  type ModelServer,
  reportLastResult,
  type ScriptStep,
  startModelServer,
  touch,
} from "./claude-model-server";
import { baseUrl } from "./harness";

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

async function start(script: ScriptStep[], event = "PermissionRequest") {
  const key = randomUUID();
  const session = await externalSession(baseUrl(), key);
  phone = new Phone(baseUrl(), session);
  model = await startModelServer(script);
  box = await sandbox(model);
  const agentKey = await mintAgentKey(baseUrl(), "hook e2e");
  const settings = await hookSettings(box, ["--server", baseUrl(), "--agent-key", agentKey], event);
  run = runClaude(box, "Make the file.", ["--settings", settings, "--session-id", key]);
  return { session, phone, model, box, run };
}

async function eventTypes(session: {
  sessionId: string;
  token: string;
}): Promise<Array<{ type: string; data: unknown }>> {
  const response = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/events`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  return ((await response.json()) as { events: Array<{ type: string; data: unknown }> }).events;
}

describe.skipIf(!hasChromium || !hasClaude)(
  "Claude Code with parley hook as its PermissionRequest hook",
  () => {
    beforeAll(() => buildBridges());

    it("runs the command once the phone approves, and the devices see the prompt and the finished tool", {
      timeout: 60_000,
    }, async () => {
      const t = await start([touch("hooked.txt"), reportLastResult]);
      const card = await t.phone.nextPrompt();
      expect(JSON.stringify(card.data)).toContain("touch hooked.txt");
      await t.phone.respond(card.interactionId, { decision: "approve" });
      const { code, stdout } = await t.run.done;
      expect(code, stdout).toBe(0);
      expect(existsSync(join(t.box.cwd, "hooked.txt"))).toBe(true);
      const events = JSON.stringify(await eventTypes(t.session));
      expect(events).toContain("Make the file.");
      expect(events).toContain("toolu_touch_hookedtxt");
    });

    it("does not run a denied command, and the model reads the reason", { timeout: 60_000 }, async () => {
      const t = await start([touch("nope.txt"), reportLastResult]);
      const card = await t.phone.nextPrompt();
      await t.phone.respond(card.interactionId, { decision: "deny", reason: "Ask me tomorrow" });
      const { code, stdout } = await t.run.done;
      expect(code, stdout).toBe(0);
      expect(existsSync(join(t.box.cwd, "nope.txt"))).toBe(false);
      expect(t.model.toolResults().at(-1)).toContain("Ask me tomorrow");
    });

    it("runs the edited command through a PreToolUse hook", { timeout: 60_000 }, async () => {
      const t = await start([touch("first.txt"), reportLastResult], "PreToolUse");
      const card = await t.phone.nextPrompt();
      await t.phone.respond(card.interactionId, {
        decision: "approve",
        updatedInput: { command: "touch second.txt", description: "Create second.txt" },
      });
      const { code, stdout } = await t.run.done;
      expect(code, stdout).toBe(0);
      expect(existsSync(join(t.box.cwd, "second.txt"))).toBe(true);
      expect(existsSync(join(t.box.cwd, "first.txt"))).toBe(false);
    });

    it("hands the request back to Claude Code when Parley cannot be reached, never allowing it", {
      timeout: 60_000,
    }, async () => {
      model = await startModelServer([touch("unreached.txt"), reportLastResult]);
      box = await sandbox(model);
      const closed = `http://127.0.0.1:${await freePort()}`;
      // A key the closed address never checks: the hook starts only with a credential that cannot answer.
      const agentKey = await mintAgentKey(baseUrl(), "hook unreachable e2e");
      const settings = await hookSettings(box, [
        "--server",
        closed,
        "--agent-key",
        agentKey,
        "--unreachable-seconds",
        "1",
      ]);
      run = runClaude(box, "Make the file.", ["--settings", settings]);
      const { code, result, stdout } = await run.done;
      expect(code, stdout).toBe(0);
      expect(existsSync(join(box.cwd, "unreached.txt"))).toBe(false);
      expect(JSON.stringify(result)).toContain("permission_denials");
      expect(JSON.stringify((result as { permission_denials?: unknown })?.permission_denials)).toContain(
        "Bash",
      );
    });
  },
);

// The real Claude Code CLI with `parley hook` as its PermissionRequest hook (through `--settings`)
// against `wrangler dev`: the person approves, denies with a reason or edits the command from the
// phone; the progress hooks show the prompt and the finished tool; an unreachable Parley hands the
// request back to Claude Code instead of allowing it.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  runClaude,
  sandbox,
} from "./claude-code-harness";
import { hookSettings } from "./claude-code-hook-settings";
import { reportLastResult, type ScriptStep, startModelServer, touch, touchId } from "./claude-model-server";
import { baseUrl } from "./harness";

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(script: ScriptStep[], event = "PermissionRequest") {
  const key = randomUUID();
  const session = await externalSession(baseUrl(), key);
  const phone = new Phone(baseUrl(), session);
  const model = await startModelServer(script);
  const box = await sandbox(model);
  const agentKey = await mintAgentKey(baseUrl(), "hook e2e");
  const settings = await hookSettings(box, ["--server", baseUrl(), "--agent-key", agentKey], event);
  const run = runClaude(box, "Make the file.", ["--settings", settings, "--session-id", key]);
  cleanups.push(async () => {
    run.child.kill("SIGKILL");
    phone.close();
    await model.close();
    await box.remove();
  });
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
    // One run takes the approval and then the denial, one tool call each.
    let t: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      buildBridges();
      t = await start([touch("hooked.txt"), touch("nope.txt"), reportLastResult]);
    });

    it("runs the command once the phone approves, and the devices see the prompt and the finished tool", {
      timeout: 150_000,
    }, async () => {
      // The first card waits for Claude Code to start, which a busy machine slows down.
      const card = await t.phone.nextPrompt(120_000);
      expect(JSON.stringify(card.data)).toContain("touch hooked.txt");
      await t.phone.respond(card.interactionId, { decision: "approve" });
      await expect.poll(() => t.model.toolResultFor(touchId("hooked.txt"))).toBeDefined();
      expect(existsSync(join(t.box.cwd, "hooked.txt"))).toBe(true);
      // The finished tool reaches the devices from the PostToolUse hook, just after the result.
      await expect
        .poll(async () => JSON.stringify(await eventTypes(t.session)))
        .toContain("toolu_touch_hookedtxt");
      expect(JSON.stringify(await eventTypes(t.session))).toContain("Make the file.");
    });

    it("does not run a denied command, and the model reads the reason", { timeout: 60_000 }, async () => {
      const card = await t.phone.nextPrompt();
      expect(JSON.stringify(card.data)).toContain("touch nope.txt");
      await t.phone.respond(card.interactionId, { decision: "deny", reason: "Ask me tomorrow" });
      const { code, stdout } = await t.run.done;
      expect(code, stdout).toBe(0);
      expect(existsSync(join(t.box.cwd, "nope.txt"))).toBe(false);
      expect(t.model.toolResultFor(touchId("nope.txt"))).toContain("Ask me tomorrow");
    });

    it("runs the edited command through a PreToolUse hook", { timeout: 150_000 }, async () => {
      const edit = await start([touch("first.txt"), reportLastResult], "PreToolUse");
      const card = await edit.phone.nextPrompt(120_000);
      await edit.phone.respond(card.interactionId, {
        decision: "approve",
        updatedInput: { command: "touch second.txt", description: "Create second.txt" },
      });
      const { code, stdout } = await edit.run.done;
      expect(code, stdout).toBe(0);
      expect(existsSync(join(edit.box.cwd, "second.txt"))).toBe(true);
      expect(existsSync(join(edit.box.cwd, "first.txt"))).toBe(false);
    });

    it("hands the request back to Claude Code when Parley cannot be reached, never allowing it", {
      timeout: 120_000,
    }, async () => {
      const model = await startModelServer([touch("unreached.txt"), reportLastResult]);
      const box = await sandbox(model);
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
      const run = runClaude(box, "Make the file.", ["--settings", settings]);
      cleanups.push(async () => {
        run.child.kill("SIGKILL");
        await model.close();
        await box.remove();
      });
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

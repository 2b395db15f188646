// The real Claude Agent SDK's `query()` with `parleyCanUseTool` (the built `parley/agent-sdk`)
// against `wrangler dev`: the phone approves, denies or edits; a grant made from the SDK's own
// "always allow" suggestion stops the next identical call from asking; aborting the query
// withdraws the card on every device.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  ROOT,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import {
  type ModelServer,
  reportLastResult,
  type ScriptStep,
  startModelServer,
  touch,
} from "./claude-model-server";
import { baseUrl } from "./harness";

type CanUseToolFactory = typeof import("../../client/agent-sdk").parleyCanUseTool;

let model: ModelServer | undefined;
let box: Sandbox | undefined;
let phone: Phone | undefined;
afterEach(async () => {
  phone?.close();
  await model?.close();
  await box?.remove();
  model = box = phone = undefined;
});

async function start(script: ScriptStep[]) {
  // The package's built export, as an application would import `parley/agent-sdk`.
  const { parleyCanUseTool } = (await import(join(ROOT, "dist", "agent-sdk.js"))) as {
    parleyCanUseTool: CanUseToolFactory;
  };
  const key = `sdk-${randomUUID()}`;
  const session = await externalSession(baseUrl(), key, "Agent SDK");
  const agentKey = await mintAgentKey(baseUrl(), "Agent SDK e2e");
  phone = new Phone(baseUrl(), session);
  model = await startModelServer(script);
  box = await sandbox(model);
  const abortController = new AbortController();
  const messages = query({
    prompt: "Make the file.",
    options: {
      cwd: box.cwd,
      env: box.env,
      abortController,
      canUseTool: parleyCanUseTool({ server: baseUrl(), agentKey, key, title: "SDK test" }),
    },
  });
  const done = (async () => {
    let result: string | undefined;
    for await (const message of messages) {
      if (message.type === "result" && message.subtype === "success") result = message.result;
    }
    return result;
  })();
  return { session, phone, model, box, abortController, done };
}

describe.skipIf(!hasChromium || !hasClaude)("the Agent SDK with parleyCanUseTool", () => {
  beforeAll(() => buildBridges());

  it("runs the command the phone approved, and a denial's reason reaches the model", {
    timeout: 60_000,
  }, async () => {
    const t = await start([touch("sdk.txt"), touch("other.txt"), reportLastResult]);
    const first = await t.phone.nextPrompt();
    expect(JSON.stringify(first.data)).toContain("touch sdk.txt");
    await t.phone.respond(first.interactionId, { decision: "approve" });
    const second = await t.phone.nextPrompt();
    await t.phone.respond(second.interactionId, { decision: "deny", reason: "One file is enough" });
    await t.done;
    expect(existsSync(join(t.box.cwd, "sdk.txt"))).toBe(true);
    expect(existsSync(join(t.box.cwd, "other.txt"))).toBe(false);
    expect(t.model.toolResults().at(-1)).toContain("One file is enough");
  });

  it("runs the command as edited on the phone", { timeout: 60_000 }, async () => {
    const t = await start([touch("plain.txt"), reportLastResult]);
    const card = await t.phone.nextPrompt();
    await t.phone.respond(card.interactionId, {
      decision: "approve",
      updatedInput: { command: "touch fancy.txt", description: "Create fancy.txt" },
    });
    await t.done;
    expect(existsSync(join(t.box.cwd, "fancy.txt"))).toBe(true);
    expect(existsSync(join(t.box.cwd, "plain.txt"))).toBe(false);
  });

  it("offers the SDK's always-allow suggestion on the card, and the grant made from it stops the next identical call from asking", {
    timeout: 60_000,
  }, async () => {
    const t = await start([
      touch("again.txt", "toolu_again_1"),
      touch("again.txt", "toolu_again_2"),
      reportLastResult,
    ]);
    const card = await t.phone.nextPrompt();
    const offered = JSON.stringify(card.data).match(/"suggestedRules":(\[[^\]]*\])/)?.[1];
    const rules = offered ? (JSON.parse(offered) as string[]) : [];
    expect(rules).toContainEqual(expect.stringMatching(/^Bash\(touch/));
    const rule = rules.find((r) => r.startsWith("Bash(touch")) ?? "";
    await t.phone.respond(card.interactionId, {
      decision: "approve",
      grant: { rule, scope: "session", expiresInSeconds: 3_600 },
    });
    await t.done;
    expect(t.model.toolResults()).toHaveLength(2);
    await expect(t.phone.nextPrompt(1_000)).rejects.toThrow(/no card/);
    // A plain allow went back: the SDK was not asked to save the rule in Claude Code's settings.
    expect(existsSync(join(t.box.cwd, ".claude", "settings.local.json"))).toBe(false);
  });

  it("withdraws the card on every device when the query is aborted", { timeout: 60_000 }, async () => {
    const t = await start([touch("never.txt"), reportLastResult]);
    const card = await t.phone.nextPrompt();
    t.abortController.abort();
    await t.done.catch(() => undefined);
    await expect
      .poll(async () => {
        const response = await fetch(
          `${baseUrl()}/api/sessions/${t.session.sessionId}/interactions/${card.interactionId}`,
          { headers: { authorization: `Bearer ${t.session.token}` } },
        );
        const body = (await response.json()) as { status?: string; resolution?: { outcome?: string } };
        return `${body.status}:${body.resolution?.outcome}`;
      })
      .toBe("resolved:withdrawn");
    expect(existsSync(join(t.box.cwd, "never.txt"))).toBe(false);
  });
});

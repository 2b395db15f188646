// The real Claude Agent SDK's `query()` with `parleyCanUseTool` (the built `parley/agent-sdk`)
// against `wrangler dev`: the phone approves, denies or edits; a grant made from the SDK's own
// "always allow" suggestion stops the next identical call from asking; aborting the query
// withdraws the card on every device.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  cardsOpened,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  ROOT,
  sandbox,
} from "./claude-code-harness";
import { reportLastResult, type ScriptStep, startModelServer, touch, touchId } from "./claude-model-server";
import { baseUrl } from "./harness";

type CanUseToolFactory = typeof import("../../client/agent-sdk").parleyCanUseTool;

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(script: ScriptStep[]) {
  // The package's built export, as an application would import `parley/agent-sdk`.
  const { parleyCanUseTool } = (await import(join(ROOT, "dist", "agent-sdk.js"))) as {
    parleyCanUseTool: CanUseToolFactory;
  };
  const key = `sdk-${randomUUID()}`;
  const session = await externalSession(baseUrl(), key, "Agent SDK");
  const agentKey = await mintAgentKey(baseUrl(), "Agent SDK e2e");
  const phone = new Phone(baseUrl(), session);
  const model = await startModelServer(script);
  const box = await sandbox(model);
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
  cleanups.push(async () => {
    abortController.abort();
    await done.catch(() => undefined);
    phone.close();
    await model.close();
    await box.remove();
  });
  return { session, phone, model, box, abortController, done };
}

describe.skipIf(!hasChromium || !hasClaude)("the Agent SDK with parleyCanUseTool", () => {
  // One query takes the phone's approval, denial and edit, one tool call each, and is then aborted
  // while its fourth card waits; the grant, which would answer later calls, has a query of its own.
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    buildBridges();
    t = await start([
      touch("sdk.txt"),
      touch("other.txt"),
      touch("plain.txt"),
      touch("never.txt"),
      reportLastResult,
    ]);
  });

  it("runs the command the phone approved, and a denial's reason reaches the model", {
    timeout: 150_000,
  }, async () => {
    // The first card waits for Claude Code to start, which a busy machine slows down.
    const first = await t.phone.nextPrompt(120_000);
    expect(JSON.stringify(first.data)).toContain("touch sdk.txt");
    await t.phone.respond(first.interactionId, { decision: "approve" });
    const second = await t.phone.nextPrompt();
    expect(JSON.stringify(second.data)).toContain("touch other.txt");
    await t.phone.respond(second.interactionId, { decision: "deny", reason: "One file is enough" });
    await expect.poll(() => t.model.toolResultFor(touchId("other.txt"))).toContain("One file is enough");
    expect(existsSync(join(t.box.cwd, "sdk.txt"))).toBe(true);
    expect(existsSync(join(t.box.cwd, "other.txt"))).toBe(false);
  });

  it("runs the command as edited on the phone", { timeout: 60_000 }, async () => {
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch plain.txt");
    await t.phone.respond(card.interactionId, {
      decision: "approve",
      updatedInput: { command: "touch fancy.txt", description: "Create fancy.txt" },
    });
    await expect.poll(() => t.model.toolResultFor(touchId("plain.txt"))).toBeDefined();
    expect(existsSync(join(t.box.cwd, "fancy.txt"))).toBe(true);
    expect(existsSync(join(t.box.cwd, "plain.txt"))).toBe(false);
  });

  it("withdraws the card on every device when the query is aborted", { timeout: 60_000 }, async () => {
    const card = await t.phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch never.txt");
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

  it("offers the SDK's always-allow suggestion on the card, and the grant made from it stops the next identical call from asking", {
    timeout: 150_000,
  }, async () => {
    const g = await start([
      touch("again.txt", "toolu_again_1"),
      touch("again.txt", "toolu_again_2"),
      reportLastResult,
    ]);
    const card = await g.phone.nextPrompt(120_000);
    const offered = JSON.stringify(card.data).match(/"suggestedRules":(\[[^\]]*\])/)?.[1];
    const rules = offered ? (JSON.parse(offered) as string[]) : [];
    expect(rules).toContainEqual(expect.stringMatching(/^Bash\(touch/));
    const rule = rules.find((r) => r.startsWith("Bash(touch")) ?? "";
    await g.phone.respond(card.interactionId, {
      decision: "approve",
      grant: { rule, scope: "session", expiresInSeconds: 3_600 },
    });
    await g.done;
    expect(g.model.toolResults()).toHaveLength(2);
    // The query is over and its session opened one card: the grant answered the second call.
    expect(await cardsOpened(baseUrl(), g.session)).toBe(1);
    // A plain allow went back: the SDK was not asked to save the rule in Claude Code's settings.
    expect(existsSync(join(g.box.cwd, ".claude", "settings.local.json"))).toBe(false);
  });
});

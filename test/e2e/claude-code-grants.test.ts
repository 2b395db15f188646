// A grant made from a card reaches real Claude Code (`claude -p` with `parley mcp` as its permission
// prompt): "allow Bash(npm run test:*) for this agent" lets a new session run the tests with no
// card, still asks about `npm run build`, and the decision record names the grant. Through
// `parley hook`, the card offers Claude Code's own "always allow" suggestion, and choosing it makes
// the Parley grant while Claude Code's settings files stay untouched.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { GrantView } from "../../src/protocol/grants/grants";
import type { DecisionPage } from "../../src/protocol/inbox/decisions";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ClaudeRun,
  cardsOpened,
  externalSession,
  hasClaude,
  mcpConfig,
  mintAgentKey,
  Phone,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { hookLog, hookSettings } from "./claude-code-hook-settings";
import { type ModelServer, reportLastResult, type ScriptStep, startModelServer } from "./claude-model-server";
import { asPerson, baseUrl } from "./harness";

const bash = (command: string, id: string): ScriptStep => ({
  content: [
    { type: "text", text: `Running ${command}.` },
    { type: "tool_use", id, name: "Bash", input: { command, description: `Run ${command}` } },
  ],
});

/** A project whose `npm run test` and `npm run build` each leave a file behind. */
const PACKAGE = {
  name: "grant-sandbox",
  private: true,
  scripts: { test: "node write.js tested.txt", build: "node write.js built.txt" },
};
const WRITE = "require('fs').writeFileSync(process.argv[2], process.argv.slice(3).join(' '));\n";

// One agent key for the file's runs: a grant "for this agent" is bound to the key the bridge holds.
let minted: Promise<string> | undefined;
const agentKey = () => (minted ??= mintAgentKey(baseUrl(), "grants e2e"));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function claudeRun(
  key: string,
  script: ScriptStep[],
  bridge: "mcp" | "hook" = "mcp",
): Promise<{ box: Sandbox; run: ClaudeRun; model: ModelServer }> {
  const model = await startModelServer(script);
  const box = await sandbox(model);
  cleanups.push(
    () => model.close(),
    () => box.remove(),
  );
  await writeFile(join(box.cwd, "package.json"), JSON.stringify(PACKAGE));
  await writeFile(join(box.cwd, "write.js"), WRITE);
  const asks =
    bridge === "mcp"
      ? [
          "--mcp-config",
          await mcpConfig(box, ["--server", baseUrl(), "--agent-key", await agentKey()]),
          "--permission-prompt-tool",
          "mcp__parley__approve",
        ]
      : ["--settings", await hookSettings(box, ["--server", baseUrl(), "--agent-key", await agentKey()])];
  const run = runClaude(box, "Run the tests.", [...asks, "--session-id", key]);
  cleanups.push(() => void run.child.kill("SIGKILL"));
  return { box, run, model };
}

/** The rules an approval card offers from the agent's own suggestions. */
function suggestedRules(card: { data: Record<string, unknown> }): string[] {
  const found = JSON.stringify(card.data).match(/"suggestedRules":(\[[^\]]*\])/);
  return found?.[1] ? (JSON.parse(found[1]) as string[]) : [];
}

describe.skipIf(!hasChromium || !hasClaude)("a grant made from a card, with Claude Code", () => {
  beforeAll(() => buildBridges());

  it("runs the granted tests in a new session with no card, and still asks for the build", {
    timeout: 240_000,
  }, async () => {
    // The first session: the person allows the tests from the card, for this agent, for an hour.
    const firstKey = randomUUID();
    const first = await externalSession(baseUrl(), firstKey);
    const firstPhone = new Phone(baseUrl(), first);
    cleanups.push(() => firstPhone.close());
    const one = await claudeRun(firstKey, [
      bash("npm run test -- --watch=false", "toolu_test_1"),
      reportLastResult,
    ]);
    // Each card waits for a Claude Code to start, which a busy machine slows down.
    const card = await firstPhone.nextPrompt(90_000);
    expect(JSON.stringify(card.data)).toContain("npm run test -- --watch=false");
    await firstPhone.respond(card.interactionId, {
      decision: "approve",
      grant: { rule: "Bash(npm run test:*)", scope: "agent", expiresInSeconds: 3_600 },
    });
    const firstDone = await one.run.done;
    expect(firstDone.code, firstDone.stdout).toBe(0);
    expect(existsSync(join(one.box.cwd, "tested.txt"))).toBe(true);
    const listed = (await (await fetch(`${baseUrl()}/api/grants`, { headers: asPerson() })).json()) as {
      grants: GrantView[];
    };
    const grant = listed.grants.find((g) => g.fromInteraction === card.interactionId);
    expect(grant).toMatchObject({
      rule: "Bash(npm run test:*)",
      scope: "agent",
      agent: { name: "Claude Code" },
    });
    if (!grant) return;
    cleanups.push(
      async () =>
        void (await fetch(`${baseUrl()}/api/grants/${grant.grantId}`, {
          method: "DELETE",
          headers: asPerson(),
        })),
    );

    // A new session of the same agent: the tests run at once, the build waits for the person.
    const secondKey = randomUUID();
    const second = await externalSession(baseUrl(), secondKey);
    const secondPhone = new Phone(baseUrl(), second);
    cleanups.push(() => secondPhone.close());
    const two = await claudeRun(secondKey, [
      bash("npm run test -- --watch=false", "toolu_test_2"),
      bash("npm run build", "toolu_build_2"),
      reportLastResult,
    ]);
    const asked = await secondPhone.nextPrompt(90_000);
    expect(JSON.stringify(asked.data)).toContain("npm run build");
    expect(existsSync(join(two.box.cwd, "tested.txt"))).toBe(true);
    expect(existsSync(join(two.box.cwd, "built.txt"))).toBe(false);
    await secondPhone.respond(asked.interactionId, { decision: "approve" });
    const secondDone = await two.run.done;
    expect(secondDone.code, secondDone.stdout).toBe(0);
    expect(existsSync(join(two.box.cwd, "built.txt"))).toBe(true);

    // The decision record names the grant for the tests and the person for the build.
    await expect
      .poll(async () => {
        const page = (await (
          await fetch(`${baseUrl()}/api/decisions?session=${second.sessionId}`, { headers: asPerson() })
        ).json()) as DecisionPage;
        return page.decisions.map((d) => d.decidedBy);
      })
      .toEqual([
        { kind: "grant", label: "Bash(npm run test:*)", id: grant.grantId, device: null },
        { kind: "person", label: "operator", id: "operator", device: "api", personId: "operator" },
      ]);
  });
  it("offers Claude Code's own suggestion through parley hook, and choosing it makes a grant, not a settings rule", {
    timeout: 150_000,
  }, async () => {
    const key = randomUUID();
    const session = await externalSession(baseUrl(), key);
    const phone = new Phone(baseUrl(), session);
    cleanups.push(() => phone.close());
    const { box, run, model } = await claudeRun(
      key,
      [
        bash("npm run test -- --watch=false", "toolu_hook_1"),
        bash("npm run test -- --watch=false", "toolu_hook_2"),
        reportLastResult,
      ],
      "hook",
    );
    const card = await phone.nextPrompt(90_000);
    const offered = suggestedRules(card);
    // Claude Code's PermissionRequest hook input carries permission_suggestions (2.1.330 suggests
    // `Bash(npm run *)` here); the card offers them in Claude Code's own rule syntax.
    expect(offered, await readFile(hookLog(box), "utf8").catch(() => "")).toContainEqual(
      expect.stringMatching(/^Bash\(npm run/),
    );
    const rule = offered.find((r) => r.startsWith("Bash(npm run")) ?? "";
    await phone.respond(card.interactionId, {
      decision: "approve",
      grant: { rule, scope: "session", expiresInSeconds: 3_600 },
    });
    const done = await run.done;
    expect(done.code, done.stdout).toBe(0);
    // Both calls ran; the second asked nobody: the grant answered it before a card opened.
    expect(model.toolResults()).toHaveLength(2);
    // Claude Code has exited, so every card it could have asked for is in the session's log: one.
    expect(await cardsOpened(baseUrl(), session)).toBe(1);
    const listed = (await (await fetch(`${baseUrl()}/api/grants`, { headers: asPerson() })).json()) as {
      grants: GrantView[];
    };
    const grant = listed.grants.find((g) => g.fromInteraction === card.interactionId);
    expect(grant).toMatchObject({ rule, scope: "session", sessionId: session.sessionId });
    if (grant)
      cleanups.push(
        async () =>
          void (await fetch(`${baseUrl()}/api/grants/${grant.grantId}`, {
            method: "DELETE",
            headers: asPerson(),
          })),
      );
    // The hook answered with a plain allow: Claude Code was never asked to save the rule.
    expect(existsSync(join(box.cwd, ".claude", "settings.local.json"))).toBe(false);
    expect(existsSync(join(box.cwd, ".claude", "settings.json"))).toBe(false);
  });
});

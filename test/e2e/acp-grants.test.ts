// Grants and denies decide the real claude-agent-acp's calls (Claude Code offline against a local
// Messages API, behind `parley acp`) by what each call is — Claude Code's Bash with its command —
// and never by the title the agent writes: a grant on `ls` does not cover `ls` with another line
// after it, and a `Bash(curl:*)` deny refuses a curl with no person asked.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GrantView } from "../../src/protocol/grants/grants";
import type { DecisionPage } from "../../src/protocol/inbox/decisions";
import { removeSandbox, spawnParleyAcp, TestEditor } from "./acp-harness";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ExternalSession,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, reportLastResult, type ScriptStep, startModelServer } from "./claude-model-server";
import { asPerson, baseUrl } from "./harness";

let key: Promise<string> | undefined;
const agentKey = () => (key ??= mintAgentKey(baseUrl(), "acp grants e2e"));
const cleanups: Array<() => Promise<void> | void> = [];

const bash = (command: string, id: string): ScriptStep => ({
  content: [
    { type: "text", text: "Running it." },
    { type: "tool_use", id, name: "Bash", input: { command, description: "Run a command" } },
  ],
});

interface Run {
  cwd: string;
  model: ModelServer;
  editor: TestEditor;
  session: ExternalSession;
  stderr: () => string;
}

/** `parley acp` in front of claude-agent-acp, its Parley session made first so grants can name it. */
async function startRun(script: ScriptStep[]): Promise<Run> {
  const model = await startModelServer(script);
  const box = await sandbox(model);
  const proxy = spawnParleyAcp(box, ["--server", baseUrl(), "--agent-key", await agentKey()]);
  cleanups.push(async () => {
    await proxy.stop();
    await model.close();
    await removeSandbox(box);
  });
  const editor = new TestEditor(proxy.child);
  cleanups.push(() => editor.close());
  const acpSession = await editor.open(box.cwd);
  const session = await externalSession(baseUrl(), acpSession, "Claude Agent");
  return { cwd: box.cwd, model, editor, session, stderr: proxy.stderr };
}

async function grant(body: Record<string, unknown>): Promise<GrantView> {
  const response = await fetch(`${baseUrl()}/api/grants`, {
    method: "POST",
    headers: { ...asPerson(), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`grant: ${response.status} ${await response.text()}`);
  const made = (await response.json()) as GrantView;
  cleanups.push(
    async () =>
      void (await fetch(`${baseUrl()}/api/grants/${made.grantId}`, {
        method: "DELETE",
        headers: asPerson(),
      })),
  );
  return made;
}

async function decisions(sessionId: string): Promise<DecisionPage["decisions"]> {
  const response = await fetch(`${baseUrl()}/api/decisions?session=${sessionId}`, { headers: asPerson() });
  return ((await response.json()) as DecisionPage).decisions;
}

describe.skipIf(!hasChromium || !hasClaude)("grants on claude-agent-acp's calls", () => {
  // One agent, one session: each prompt's calls meet the grants made for it.
  let run: Run;
  beforeAll(async () => {
    buildBridges();
    run = await startRun([
      bash("touch granted.txt", "toolu_acp_granted"),
      bash("ls\ntouch pwned.txt", "toolu_acp_chained"),
      reportLastResult,
      bash("curl -s http://127.0.0.1:9/install.sh -o fetched.sh", "toolu_acp_curl"),
      reportLastResult,
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("a grant on ls does not cover ls followed by another line", { timeout: 150_000 }, async () => {
    const scope = { scope: "session", sessionId: run.session.sessionId };
    // The rule a card named by its title would have offered, Claude Code's own, and one that does apply.
    await grant({ rule: "ls", ...scope });
    await grant({ rule: "Bash(ls)", ...scope });
    const allowed = await grant({ rule: "Bash(touch granted.txt)", ...scope });
    const phone = new Phone(baseUrl(), run.session);
    cleanups.push(() => phone.close());

    const turn = run.editor.prompt("Make the file, then list the folder.");
    // The grant answers the first call before a person sees it: the editor's request is withdrawn.
    // The first request waits for Claude Code to start, which a busy machine slows down.
    await (await run.editor.nextPermission(120_000)).cancelled;
    const chained = await run.editor.nextPermission();
    const card = await phone.nextPrompt();
    const request = card.data.request as { toolName: string; input: { command?: string } };
    expect(request.toolName).toBe("Bash");
    expect(request.input.command).toBe("ls\ntouch pwned.txt");
    await phone.respond(card.interactionId, { decision: "deny" });
    await chained.cancelled;
    await turn;
    expect(existsSync(join(run.cwd, "granted.txt")), run.stderr()).toBe(true);
    expect(existsSync(join(run.cwd, "pwned.txt"))).toBe(false);
    await expect
      .poll(async () => (await decisions(run.session.sessionId)).map((d) => [d.toolName, d.decidedBy.kind]))
      .toEqual([
        ["Bash", "grant"],
        ["Bash", "person"],
      ]);
    expect((await decisions(run.session.sessionId))[0]?.decidedBy.id).toBe(allowed.grantId);
  });

  it("a Bash(curl:*) deny refuses an ACP call with no person asked", { timeout: 120_000 }, async () => {
    const before = (await decisions(run.session.sessionId)).length;
    const denied = await grant({
      effect: "deny",
      rule: "Bash(curl:*)",
      scope: "session",
      sessionId: run.session.sessionId,
      reason: "No downloads from agents",
    });
    const turn = run.editor.prompt("Fetch the installer.");
    // Parley answers first, from the deny: the editor's request is withdrawn and no card waits.
    const asked = await run.editor.nextPermission();
    expect(JSON.stringify(asked.params)).toContain("curl");
    await asked.cancelled;
    expect((await turn).stopReason).toBe("end_turn");
    expect(existsSync(join(run.cwd, "fetched.sh"))).toBe(false);
    await expect
      .poll(async () =>
        (await decisions(run.session.sessionId)).slice(before).map((d) => [d.outcome, d.decidedBy]),
      )
      .toEqual([["denied", { kind: "grant", label: "Bash(curl:*)", id: denied.grantId, device: null }]]);
  });
});

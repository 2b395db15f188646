// `parley acp` in front of the real claude-agent-acp (Claude Code through the Agent SDK, offline
// against a local Messages API), with a test editor built from the ACP SDK's client side: each
// permission is asked in the editor and in Parley at once, and the first answer wins. One agent
// takes the decisions in turn, one prompt each; ending it (or reaching no Parley) takes its own.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { removeSandbox, spawnParleyAcp, TestEditor } from "./acp-harness";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ExternalSession,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, startModelServer, touchEachNamedFile, touchId } from "./claude-model-server";

const baseUrl = () => inject("baseUrl");
// One agent key for the file's runs: a bridge starts only with a credential that cannot answer.
let key: Promise<string> | undefined;
const agentKey = () => (key ??= mintAgentKey(baseUrl(), "acp e2e"));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Run {
  box: Sandbox;
  model: ModelServer;
  proxy: ReturnType<typeof spawnParleyAcp>;
  editor: TestEditor;
  sessionId: string;
}

/**
 * One `parley acp` in front of claude-agent-acp, one ACP session: each prompt names the file its
 * Bash call makes (touchEachNamedFile), so one agent takes several decisions in turn.
 */
async function startRun(server = baseUrl()): Promise<Run> {
  const model = await startModelServer(touchEachNamedFile);
  const box = await sandbox(model);
  const proxy = spawnParleyAcp(box, [
    "--server",
    server,
    "--agent-key",
    await agentKey(),
    "--unreachable-seconds",
    "2",
  ]);
  cleanups.push(async () => {
    await proxy.stop();
    await model.close();
    await removeSandbox(box);
  });
  const editor = new TestEditor(proxy.child);
  cleanups.push(() => editor.close());
  const sessionId = await editor.open(box.cwd);
  return { box, model, proxy, editor, sessionId };
}

/** The owner's phone on the Parley session `parley acp` keyed by the ACP session id. */
function phoneFor(run: Run) {
  return externalSession(baseUrl(), run.sessionId, "Claude Agent").then((session) => {
    const phone = new Phone(baseUrl(), session);
    cleanups.push(() => phone.close());
    return { phone, session };
  });
}

function childrenOf(pid: number | undefined): number[] {
  let out = "";
  try {
    out = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    // ps exits 1 when the process has no children.
  }
  return out
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function cardState(sessionId: string, token: string, interactionId: string): Promise<string> {
  const response = await fetch(`${baseUrl()}/api/sessions/${sessionId}/interactions/${interactionId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { status?: string; resolution?: { outcome?: string } };
  return `${body.status}:${body.resolution?.outcome}`;
}

describe.skipIf(!hasChromium || !hasClaude)("parley acp between an editor and claude-agent-acp", () => {
  // One agent for the decisions an editor and a Parley device take on the same session in turn,
  // ending with the editor leaving; another whose agent dies mid-wait; one with Parley away.
  let run: Run;
  let phone: Phone;
  let session: ExternalSession;
  beforeAll(async () => {
    buildBridges();
    run = await startRun();
  }, 120_000);

  it("runs the command approved from a Parley device and cancels the editor's pending request", {
    timeout: 150_000,
  }, async () => {
    const turn = run.editor.prompt("Make from-phone.txt.");
    // The first request waits for Claude Code to start, which a busy machine slows down.
    const asked = await run.editor.nextPermission(120_000);
    ({ phone, session } = await phoneFor(run));
    const card = await phone.nextPrompt();
    const request = card.data.request as { toolName: string; acp?: { kind?: string; allowAlways: boolean } };
    expect(request.acp?.kind).toBe("execute");
    expect(request.acp?.allowAlways).toBe(true);
    expect(JSON.stringify(request)).toContain("touch from-phone.txt");
    await phone.respond(card.interactionId, { decision: "approve" });
    await asked.cancelled;
    expect((await turn).stopReason).toBe("end_turn");
    expect(existsSync(join(run.box.cwd, "from-phone.txt")), run.proxy.stderr()).toBe(true);
    // The session is named after the agent and titled from the first prompt.
    const snapshot = (await (
      await fetch(`${baseUrl()}/api/sessions/${session.sessionId}`, {
        headers: { authorization: `Bearer ${session.token}` },
      })
    ).json()) as { agent?: { name?: string; title?: string | null } };
    expect(snapshot.agent).toMatchObject({ name: "Claude Agent", title: "Make from-phone.txt." });
  });

  it("withdraws the Parley card on every device when the editor answers first", {
    timeout: 120_000,
  }, async () => {
    const turn = run.editor.prompt("Make from-editor.txt.");
    const asked = await run.editor.nextPermission();
    const card = await phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch from-editor.txt");
    asked.choose("allow_once");
    expect((await turn).stopReason).toBe("end_turn");
    expect(existsSync(join(run.box.cwd, "from-editor.txt"))).toBe(true);
    await expect
      .poll(() => cardState(session.sessionId, session.token, card.interactionId))
      .toBe("resolved:withdrawn");
    expect(asked.wasCancelled()).toBe(false);
    // The card is gone: a person's late answer is refused and reaches nobody.
    await expect(phone.respond(card.interactionId, { decision: "deny" })).rejects.toThrow(/respond: 4/);
  });

  it("stops the command denied from a Parley device", { timeout: 120_000 }, async () => {
    const turn = run.editor.prompt("Make denied.txt.");
    const asked = await run.editor.nextPermission();
    const card = await phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch denied.txt");
    await phone.respond(card.interactionId, { decision: "deny" });
    await asked.cancelled;
    await turn;
    expect(existsSync(join(run.box.cwd, "denied.txt"))).toBe(false);
    const result = run.model.toolResultFor(touchId("denied.txt"));
    expect(result).toBeDefined();
    expect(result).not.toContain("completed with no output");
  });

  it("withdraws the session's cards when the editor cancels the turn", { timeout: 120_000 }, async () => {
    const turn = run.editor.prompt("Make cancelled.txt.");
    await run.editor.nextPermission();
    const card = await phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch cancelled.txt");
    await run.editor.cancel();
    await expect
      .poll(() => cardState(session.sessionId, session.token, card.interactionId))
      .toBe("resolved:withdrawn");
    expect((await turn).stopReason).toBe("cancelled");
    expect(existsSync(join(run.box.cwd, "cancelled.txt"))).toBe(false);
    // A withdrawal on purpose is not reported as Parley failing.
    expect(run.proxy.stderr()).not.toContain("the editor still asks");
  });

  it("withdraws the cards and stops the agent when the editor disconnects", {
    timeout: 120_000,
  }, async () => {
    void run.editor.prompt("Make left.txt.").catch(() => undefined);
    await run.editor.nextPermission();
    const card = await phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch left.txt");
    const agentPid = childrenOf(run.proxy.child.pid);
    run.proxy.child.stdin?.end();
    expect(await run.proxy.exit).toBe(0);
    expect(await cardState(session.sessionId, session.token, card.interactionId)).toBe("resolved:withdrawn");
    await expect.poll(() => agentPid.filter(alive)).toEqual([]);
    expect(existsSync(join(run.box.cwd, "left.txt"))).toBe(false);
  });

  it("withdraws the cards when the agent exits mid-wait", { timeout: 150_000 }, async () => {
    const dying = await startRun();
    void dying.editor.prompt("Make orphan.txt.").catch(() => undefined);
    await dying.editor.nextPermission(120_000);
    const { phone, session } = await phoneFor(dying);
    const card = await phone.nextPrompt();
    const agentPid = childrenOf(dying.proxy.child.pid);
    expect(agentPid).toHaveLength(1);
    // Claude Code (the agent's own child) goes too, so nothing writes into the sandbox afterwards.
    for (const pid of [...agentPid, ...childrenOf(agentPid[0])]) process.kill(pid, "SIGKILL");
    expect(await dying.proxy.exit).not.toBe(0);
    expect(await cardState(session.sessionId, session.token, card.interactionId)).toBe("resolved:withdrawn");
  });

  it("still asks in the editor when Parley cannot be reached", { timeout: 150_000 }, async () => {
    const offline = await startRun("http://127.0.0.1:9");
    const turn = offline.editor.prompt("Make offline.txt.");
    const asked = await offline.editor.nextPermission(120_000);
    await expect
      .poll(() => offline.proxy.stderr())
      .toMatch(/Parley could not be reached: [^\n]*; the editor still asks/);
    asked.choose("allow_once");
    expect((await turn).stopReason).toBe("end_turn");
    expect(existsSync(join(offline.box.cwd, "offline.txt"))).toBe(true);
  });
});

// `parley daemon` on the person's machine, with the real claude-agent-acp (Claude Code through the
// Agent SDK) offline against the stand-in Messages API: the person starts a session from Parley,
// continues it with messages (one sent mid-turn waits for that turn), and stops it, which
// withdraws its open card and ends the agent's process.
import { type ChildProcess, spawn } from "node:child_process";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InboxView, MachineView } from "../../src/protocol/index";
import { CLAUDE_AGENT_ACP, claudeAcpCommand, removeSandbox } from "./acp-harness";
import { hasChromium } from "./browser-env";
import { buildBridges, hasClaude, mintAgentKey, PARLEY_BIN, sandbox } from "./claude-code-harness";
import {
  type ModelServer,
  reportLastResult,
  type ScriptStep,
  startModelServer,
  touch,
} from "./claude-model-server";
import { asPerson, baseUrl, launchBrowser } from "./harness";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const said = (text: string): ScriptStep => ({ content: [{ type: "text", text }] });

function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl()}${path}`, {
    method,
    headers: { ...asPerson(), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The main-loop request whose user turns first carry `text`, and how many assistant turns came before it. */
function firstRequestWith(model: ModelServer, text: string): { assistantTurns: number } | null {
  const request = model.mainRequests().find((one) => JSON.stringify(one.body.messages).includes(text));
  if (!request) return null;
  const messages = (request.body.messages ?? []) as Array<{ role: string }>;
  return { assistantTurns: messages.filter((m) => m.role === "assistant").length };
}

async function openCards(sessionId: string): Promise<InboxView["cards"]> {
  const view = (await (await api("GET", "/api/inbox")).json()) as InboxView;
  return view.cards.filter((card) => card.sessionId === sessionId);
}

async function nextCard(sessionId: string): Promise<string> {
  let id = "";
  await expect
    .poll(async () => (id = (await openCards(sessionId))[0]?.interactionId ?? ""), { timeout: 120_000 })
    .not.toBe("");
  return id;
}

/** A daemon on "this machine" offering claude-agent-acp in the sandbox's project folder. */
async function startDaemon(script: ScriptStep[], label: string) {
  const model = await startModelServer(script);
  const box = await sandbox(model);
  const config = join(box.home, "daemon.json");
  await writeFile(
    config,
    JSON.stringify({
      label,
      agents: { claude: { command: [process.execPath, CLAUDE_AGENT_ACP], protocol: "acp" } },
      folders: [box.cwd],
    }),
  );
  await chmod(config, 0o600);
  const key = await mintAgentKey(baseUrl(), label);
  const child: ChildProcess = spawn(
    process.execPath,
    [PARLEY_BIN, "daemon", "--server", baseUrl(), "--agent-key", key, "--config", config],
    { env: claudeAcpCommand(box).env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  let stdout = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
  cleanups.push(async () => {
    if (process.env.PARLEY_E2E_DEBUG) console.error(`daemon stdout:\n${stdout}\ndaemon stderr:\n${stderr}`);
    child.kill("SIGTERM");
    await exit;
    await model.close();
    await removeSandbox(box);
  });
  let machine: MachineView | undefined;
  await expect
    .poll(
      async () => {
        const listed = (await (await api("GET", "/api/machines")).json()) as { machines: MachineView[] };
        machine = listed.machines.find((one) => one.label === label && one.online);
        return machine !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return { model, box, machine: machine as MachineView, stderr: () => stderr, stdout: () => stdout };
}

describe.skipIf(!hasClaude || !hasChromium)("parley daemon with claude-agent-acp", () => {
  let browser: Browser;
  beforeAll(async () => {
    buildBridges();
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("starts the agent the person asks for, prompts it with each message in turn, and Stop withdraws the open card and ends the process", {
    timeout: 400_000,
  }, async () => {
    const { model, box, machine, stderr, stdout } = await startDaemon(
      [said("Ready."), touch("d1.txt"), reportLastResult, said("Got the second."), touch("d2.txt")],
      "daemon e2e laptop",
    );
    const refused = await api("POST", `/api/machines/${machine.machineId}/sessions`, {
      agent: "claude",
      folder: "/etc",
      text: "Say you are ready.",
    });
    expect(refused.status).toBe(403);
    // The person starts it from the inbox page on a phone.
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      reducedMotion: "reduce",
    });
    cleanups.push(() => context.close());
    const phone = await context.newPage();
    await phone.goto(`${baseUrl()}/`);
    await phone.getByRole("status").filter({ hasText: "Live" }).waitFor();
    await phone
      .locator(`.inbox-machines li[data-machine-id="${machine.machineId}"]`)
      .getByText("Online")
      .waitFor();
    await phone.getByLabel("Machine", { exact: true }).selectOption(machine.machineId);
    await phone.getByLabel("Agent", { exact: true }).selectOption("claude");
    await phone.getByLabel("Folder", { exact: true }).selectOption(box.cwd);
    await phone.getByLabel("First message", { exact: true }).fill("Say you are ready.");
    await phone.getByRole("button", { name: "New session" }).click();
    const row = phone.locator(".machine-sessions li[data-session-id]");
    await row.waitFor({ timeout: 30_000 });
    const sessionId = (await row.getAttribute("data-session-id")) as string;
    expect(stderr()).toContain(`started claude (acp) in ${box.cwd} for session ${sessionId}`);
    await expect
      .poll(() => firstRequestWith(model, "Say you are ready."), { timeout: 120_000 })
      .not.toBe(null);
    // The agent's words reach the daemon's stdout through the bridge it started.
    await expect.poll(() => stdout(), { timeout: 120_000 }).toContain("Ready.");

    const say = (text: string) => api("POST", `/api/inbox/sessions/${sessionId}/messages`, { text });
    expect((await say("Please make d1.txt now")).status).toBe(202);
    const card = await nextCard(sessionId);
    expect(firstRequestWith(model, "Please make d1.txt now")).toMatchObject({ assistantTurns: 1 });
    // The turn waits on the card: a message sent now waits for it to end.
    expect((await say("Second message, after the file")).status).toBe(202);
    expect(firstRequestWith(model, "Second message")).toBe(null);
    const approved = await api("POST", `/api/inbox/cards/${sessionId}/${card}/respond`, {
      response: { decision: "approve" },
    });
    expect(approved.status, await approved.clone().text()).toBe(200);
    await expect
      .poll(() => firstRequestWith(model, "Second message, after the file"), { timeout: 120_000 })
      .toMatchObject({ assistantTurns: 3 });

    // A third message asks for another file; Stop comes while its card waits.
    expect((await say("Now make d2.txt")).status).toBe(202);
    const open = await nextCard(sessionId);
    await row.getByRole("button", { name: /^Stop / }).click();
    await row.getByText("Stopped").waitFor();
    await expect.poll(() => stderr(), { timeout: 30_000 }).toContain(`session ${sessionId}: claude ended`);
    await expect
      .poll(async () => (await openCards(sessionId)).map((one) => one.interactionId))
      .not.toContain(open);
    expect((await say("Still there?")).status).toBe(409);
  });
});

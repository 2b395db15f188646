// A message the person sends with interrupt while the real claude-agent-acp waits on a permission
// card: the turn is cancelled (`session/cancel`), the pending request is answered `cancelled` (ACP's
// client answers it once it cancels), the card is withdrawn on every device, and the message is the
// next prompt, which the model then reads. Headless, and between an editor and the agent. (What the
// model answers it is not read here: claude-agent-acp 0.23 ends the prompt after a cancelled turn
// at once with the cancelled turn's leftover result, so its reply comes in no turn.)
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { cardState, removeSandbox, spawnParleyAcp, TestEditor } from "./acp-harness";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, startModelServer, touch } from "./claude-model-server";

const baseUrl = () => inject("baseUrl");
// One agent key for the file's runs: a bridge starts only with a credential that cannot answer.
let key: Promise<string> | undefined;
const agentKey = () => (key ??= mintAgentKey(baseUrl(), "acp interrupt e2e"));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MESSAGE = "Stop that and list the folder instead";

/**
 * The first main-loop request carrying the person's message, by the assistant turns before it: one
 * (the call it was waiting on) when it came as the user turn right after the cancelled one.
 */
function modelRead(model: ModelServer): { assistantTurns: number } | null {
  const request = model
    .mainRequests()
    .find((request) => JSON.stringify(request.body.messages).includes(MESSAGE));
  const messages = (request?.body.messages ?? null) as Array<{ role: string }> | null;
  return messages && { assistantTurns: messages.filter((m) => m.role === "assistant").length };
}

async function start(prompt?: string) {
  const model = await startModelServer([touch("interrupted.txt")]);
  const box = await sandbox(model);
  const args = ["--server", baseUrl(), "--agent-key", await agentKey(), "--unreachable-seconds", "2"];
  const run = spawnParleyAcp(box, prompt === undefined ? args : [...args, "--prompt", prompt], !!prompt);
  cleanups.push(async () => {
    await run.stop();
    await model.close();
    await removeSandbox(box);
  });
  return { model, box, run };
}

async function phoneOn(acpSession: string) {
  const session = await externalSession(baseUrl(), acpSession, "Claude Agent");
  const phone = new Phone(baseUrl(), session);
  cleanups.push(() => phone.close());
  return { session, phone };
}

function send(session: { sessionId: string; token: string }, path: string, body: unknown) {
  return fetch(`${baseUrl()}/api/sessions/${session.sessionId}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!hasClaude)("a message sent with interrupt to claude-agent-acp waiting on a card", () => {
  beforeAll(() => buildBridges());

  it("headless: cancels the turn, withdraws the card, and prompts the message next", {
    timeout: 180_000,
  }, async () => {
    const { model, box, run } = await start("Make the file.");
    let acpSession = "";
    await expect
      .poll(() => (acpSession = /ACP session (\S+) asks in Parley/.exec(run.stderr())?.[1] ?? ""), {
        timeout: 60_000,
      })
      .not.toBe("");
    const { session, phone } = await phoneOn(acpSession);
    const card = await phone.nextPrompt(60_000);
    expect(card.data.kind).toBe("approval");

    expect((await send(session, "/messages", { text: MESSAGE, interrupt: true })).status).toBe(202);
    await expect
      .poll(() => cardState(baseUrl(), session, card.interactionId), { timeout: 30_000 })
      .toBe("resolved:withdrawn");
    await expect.poll(() => modelRead(model), { timeout: 60_000 }).toEqual({ assistantTurns: 1 });
    expect(existsSync(join(box.cwd, "interrupted.txt"))).toBe(false);
    expect((await send(session, "/cancel", {})).status).toBe(200);
    expect(await run.exit, run.stderr()).toBe(0);
  });

  it("beside an editor: cancels the turn, answers the pending request cancelled, tells the editor to drop it, and prompts the message next", {
    timeout: 180_000,
  }, async () => {
    const { model, box, run } = await start();
    const editor = new TestEditor(run.child);
    cleanups.push(() => editor.close());
    const acpSession = await editor.open(box.cwd);
    const turn = editor.prompt("Make the file.");
    const asked = await editor.nextPermission();
    const { session, phone } = await phoneOn(acpSession);
    const card = await phone.nextPrompt(60_000);

    expect((await send(session, "/messages", { text: MESSAGE, interrupt: true })).status).toBe(202);
    // The editor's turn ends cancelled, though the editor itself never answered the request.
    expect((await turn).stopReason).toBe("cancelled");
    await asked.cancelled;
    await expect
      .poll(() => cardState(baseUrl(), session, card.interactionId), { timeout: 30_000 })
      .toBe("resolved:withdrawn");
    await expect.poll(() => modelRead(model), { timeout: 60_000 }).toEqual({ assistantTurns: 1 });
    await expect.poll(() => editor.texts("user_message_chunk")).toBe(MESSAGE);
    expect(existsSync(join(box.cwd, "interrupted.txt"))).toBe(false);
  });
});

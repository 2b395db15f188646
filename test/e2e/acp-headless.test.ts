// `parley acp --prompt` with no editor: it is claude-agent-acp's only client, so each permission
// is asked in Parley alone, the agent's text goes to stdout, each message the person sends in
// Parley is the next prompt, and once the person stops the session the exit code follows the last turn.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { removeSandbox, spawnParleyAcp } from "./acp-harness";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mintAgentKey,
  Phone,
  sandbox,
} from "./claude-code-harness";

// One agent key for the file's runs: a bridge starts only with a credential that cannot answer.
let key: Promise<string> | undefined;
const agentKey = () => (key ??= mintAgentKey(inject("baseUrl"), "acp headless e2e"));

import {
  type ModelServer,
  reportLastResult,
  type ScriptStep,
  startModelServer,
  touch,
} from "./claude-model-server";

const baseUrl = () => inject("baseUrl");

type Session = Awaited<ReturnType<typeof externalSession>>;

/** A request with the session owner's token, as the person's page would send it. */
function asOwner(session: Session, path: string, body?: unknown) {
  return fetch(`${baseUrl()}/api/sessions/${session.sessionId}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The ACP session `parley acp` reports on stderr, once it asks in Parley. */
async function acpSessionOf(run: { stderr: () => string }): Promise<string> {
  let acpSession = "";
  await expect
    .poll(
      () => {
        acpSession = /ACP session (\S+) asks in Parley/.exec(run.stderr())?.[1] ?? "";
        return acpSession;
      },
      { timeout: 60_000 },
    )
    .not.toBe("");
  return acpSession;
}

/** The main-loop request whose user turns first carry `text`, and how many assistant turns came before it. */
function firstRequestWith(
  model: ModelServer,
  text: string,
): { index: number; assistantTurns: number } | null {
  const requests = model.mainRequests();
  const index = requests.findIndex((request) => JSON.stringify(request.body.messages).includes(text));
  if (index === -1) return null;
  const messages = (requests[index]?.body.messages ?? []) as Array<{ role: string }>;
  return { index, assistantTurns: messages.filter((m) => m.role === "assistant").length };
}
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function headless(
  file: string,
  server: string,
  script: ScriptStep[] = [touch(file), reportLastResult],
  prompt = "Make the file.",
) {
  const model = await startModelServer(script);
  const box = await sandbox(model);
  const run = spawnParleyAcp(
    box,
    ["--server", server, "--agent-key", await agentKey(), "--unreachable-seconds", "2", "--prompt", prompt],
    true,
  );
  cleanups.push(async () => {
    await run.stop();
    await model.close();
    await removeSandbox(box);
  });
  return { model, box, run };
}

describe.skipIf(!hasChromium || !hasClaude)("parley acp --prompt, with no editor", () => {
  beforeAll(() => buildBridges());

  it("runs the command approved from a Parley device, prints the agent's text, and exits 0 once the person stops the session", {
    timeout: 120_000,
  }, async () => {
    const { box, run } = await headless("headless.txt", baseUrl());
    let acpSession = "";
    await expect
      .poll(
        () => {
          acpSession = /ACP session (\S+) asks in Parley/.exec(run.stderr())?.[1] ?? "";
          return acpSession;
        },
        { timeout: 60_000 },
      )
      .not.toBe("");
    const session = await externalSession(baseUrl(), acpSession, "Claude Agent");
    const phone = new Phone(baseUrl(), session);
    cleanups.push(() => phone.close());
    const card = await phone.nextPrompt(60_000);
    await phone.respond(card.interactionId, { decision: "approve" });
    await expect.poll(() => run.stdout(), { timeout: 60_000 }).toContain("Finished.");
    // The run stays for the person's messages until they stop the session.
    expect(run.child.exitCode).toBe(null);
    expect((await asOwner(session, "/cancel", {})).status).toBe(200);
    expect(await run.exit, run.stderr()).toBe(0);
    expect(existsSync(join(box.cwd, "headless.txt"))).toBe(true);
    expect(run.stdout()).toContain("Creating headless.txt.");
    expect(run.stdout()).toContain("Finished.");
  });

  it("prompts the agent with each message the person sends, the one sent while a turn runs after that turn", {
    timeout: 180_000,
  }, async () => {
    const said = (text: string): ScriptStep => ({ content: [{ type: "text", text }] });
    const { run, model, box } = await headless(
      "m1.txt",
      baseUrl(),
      [said("Ready."), touch("m1.txt"), reportLastResult, said("Got the second.")],
      "Say you are ready.",
    );
    const session = await externalSession(baseUrl(), await acpSessionOf(run), "Claude Agent");
    const phone = new Phone(baseUrl(), session);
    cleanups.push(() => phone.close());
    await expect.poll(() => run.stdout(), { timeout: 60_000 }).toContain("Ready.");

    const first = await asOwner(session, "/messages", { text: "Please make m1.txt now" });
    expect(first.status).toBe(202);
    const card = await phone.nextPrompt(60_000);
    expect(firstRequestWith(model, "Please make m1.txt now")).toMatchObject({ assistantTurns: 1 });
    // The turn waits on the card: a message sent now waits for it to end.
    const second = await asOwner(session, "/messages", { text: "Second message, after the file" });
    expect(second.status).toBe(202);
    expect(firstRequestWith(model, "Second message")).toBe(null);
    await phone.respond(card.interactionId, { decision: "approve" });
    await expect.poll(() => run.stdout(), { timeout: 60_000 }).toContain("Got the second.");
    expect(existsSync(join(box.cwd, "m1.txt"))).toBe(true);
    // It reached the model as the user turn after the whole first turn: its tool call and closing words.
    expect(firstRequestWith(model, "Second message, after the file")).toMatchObject({ assistantTurns: 3 });

    const ids = await Promise.all(
      [first, second].map(
        async (r) => ((await r.json()) as { result: { messageId: string } }).result.messageId,
      ),
    );
    // Each acknowledgement follows the progress posted before it, so it may land a moment after the text.
    const delivered = async () => {
      const events = (await (await asOwner(session, "/events?after=0")).json()) as {
        events: Array<{ type: string; data: { messageId?: string; bridge?: string } }>;
      };
      return events.events.filter((e) => e.type === "message_delivered").map((e) => e.data);
    };
    await expect.poll(delivered).toEqual(ids.map((messageId) => ({ messageId, bridge: "parley acp" })));
    expect((await asOwner(session, "/cancel", {})).status).toBe(200);
    expect(await run.exit, run.stderr()).toBe(0);
  });

  it("denies the request, saying why, when Parley cannot be reached", { timeout: 120_000 }, async () => {
    const { box, run, model } = await headless("unasked.txt", "http://127.0.0.1:9");
    await run.exit;
    expect(run.stderr()).toMatch(/Parley could not be reached: [^\n]*; the request is denied/);
    expect(existsSync(join(box.cwd, "unasked.txt"))).toBe(false);
    expect(model.toolResults().join("\n")).not.toContain("completed with no output");
  });
});

// `parley acp --prompt` with no editor: it is claude-agent-acp's only client, so each permission
// is asked in Parley alone, the agent's text goes to stdout, each message the person sends in
// Parley is the next prompt, and once the person stops the session the exit code follows the last turn.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
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
  type ScriptedTurn,
  startModelServer,
  touch,
  touchEachNamedFile,
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

/** The ACP session `parley acp` reports on stderr once it asks in Parley. */
async function acpSessionOf(run: { stderrMatch: (pattern: RegExp) => Promise<RegExpExecArray> }) {
  return (await run.stderrMatch(/ACP session (\S+) asks in Parley/))[1] ?? "";
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

async function headless(
  file: string,
  server: string,
  script: Parameters<typeof startModelServer>[0] = [touch(file), reportLastResult],
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
  // One headless run takes its first prompt's card, then the person's messages, then the stop.
  const said = (text: string): ScriptedTurn => ({ content: [{ type: "text", text }] });
  let run: Awaited<ReturnType<typeof headless>>;
  let session: Session;
  let phone: Phone;
  beforeAll(async () => {
    buildBridges();
    run = await headless(
      "headless.txt",
      baseUrl(),
      // The message sent while a turn runs is answered in words, so the test sees that turn end.
      (body) =>
        JSON.stringify(body.messages).includes("Second message")
          ? said("Got the second.")
          : touchEachNamedFile(body),
      "Make headless.txt.",
    );
    session = await externalSession(baseUrl(), await acpSessionOf(run.run), "Claude Agent");
    phone = new Phone(baseUrl(), session);
    cleanups.push(() => phone.close());
  }, 150_000);
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("runs the command approved from a Parley device and prints the agent's text", {
    timeout: 150_000,
  }, async () => {
    // The first card waits for Claude Code to start, which a busy machine slows down.
    const card = await phone.nextPrompt(120_000);
    expect(JSON.stringify(card.data)).toContain("touch headless.txt");
    await phone.respond(card.interactionId, { decision: "approve" });
    await expect.poll(() => run.run.stdout(), { timeout: 60_000 }).toContain("Finished.");
    expect(existsSync(join(run.box.cwd, "headless.txt"))).toBe(true);
    expect(run.run.stdout()).toContain("Creating headless.txt.");
    // The run stays for the person's messages until they stop the session.
    expect(run.run.child.exitCode).toBe(null);
  });

  it("prompts the agent with each message the person sends, the one sent while a turn runs after that turn", {
    timeout: 180_000,
  }, async () => {
    const { model, box } = run;
    const first = await asOwner(session, "/messages", { text: "Please make m1.txt now" });
    expect(first.status).toBe(202);
    const card = await phone.nextPrompt(60_000);
    expect(JSON.stringify(card.data)).toContain("touch m1.txt");
    // The first prompt's turn was a tool call and closing words.
    expect(firstRequestWith(model, "Please make m1.txt now")).toMatchObject({ assistantTurns: 2 });
    // The turn waits on the card: a message sent now waits for it to end.
    const second = await asOwner(session, "/messages", { text: "Second message, after the file" });
    expect(second.status).toBe(202);
    expect(firstRequestWith(model, "Second message")).toBe(null);
    await phone.respond(card.interactionId, { decision: "approve" });
    await expect.poll(() => run.run.stdout(), { timeout: 60_000 }).toContain("Got the second.");
    expect(existsSync(join(box.cwd, "m1.txt"))).toBe(true);
    // It reached the model as the user turn after the whole first turn: its tool call and closing words.
    expect(firstRequestWith(model, "Second message, after the file")).toMatchObject({ assistantTurns: 4 });

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
  });

  it("exits 0 once the person stops the session", { timeout: 60_000 }, async () => {
    expect(run.run.child.exitCode).toBe(null);
    expect((await asOwner(session, "/cancel", {})).status).toBe(200);
    expect(await run.run.exit, run.run.stderr()).toBe(0);
  });

  it("denies the request, saying why, when Parley cannot be reached", { timeout: 150_000 }, async () => {
    const { box, run, model } = await headless("unasked.txt", "http://127.0.0.1:9");
    await run.exit;
    expect(run.stderr()).toMatch(/Parley could not be reached: [^\n]*; the request is denied/);
    expect(existsSync(join(box.cwd, "unasked.txt"))).toBe(false);
    expect(model.toolResults().join("\n")).not.toContain("completed with no output");
  });
});

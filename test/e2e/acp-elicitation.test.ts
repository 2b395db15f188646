// An ACP agent's `elicitation/create` as a Parley card, with a small real agent on the ACP SDK
// (fixtures/acp-elicit-agent.ts) that asks one per prompt turn and replies with what it got back:
// headless, and between an editor and the agent, whether or not the editor shows elicitations.
// Each run takes several: the person's messages (or the editor's prompts) are its next turns.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cardState, elicitAgentCommand, removeSandbox, spawnParleyAcp, TestEditor } from "./acp-harness";
import {
  buildBridges,
  cardsOpened,
  externalSession,
  mintAgentKey,
  Phone,
  sandbox,
} from "./claude-code-harness";
import { startModelServer } from "./claude-model-server";

const baseUrl = () => inject("baseUrl");
// One agent key for the file's runs: a bridge starts only with a credential that cannot answer.
let key: Promise<string> | undefined;
const agentKey = () => (key ??= mintAgentKey(baseUrl(), "acp elicitation e2e"));
const cleanups: Array<() => Promise<void> | void> = [];

type Session = Awaited<ReturnType<typeof externalSession>>;

function asOwner(session: Session, path: string, body?: unknown) {
  return fetch(`${baseUrl()}/api/sessions/${session.sessionId}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${session.token}`,
      "content-type": "application/json",
      "x-device-id": "phone",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** `parley acp` with the elicitation agent; `prompt` runs it headless. */
async function start(prompt?: string) {
  // The agent calls no model; the sandbox only needs an address for one.
  const model = await startModelServer([]);
  const box = await sandbox(model);
  const args = ["--server", baseUrl(), "--agent-key", await agentKey(), "--unreachable-seconds", "2"];
  const run = spawnParleyAcp(
    box,
    prompt === undefined ? args : [...args, "--prompt", prompt],
    prompt !== undefined,
    elicitAgentCommand(box),
  );
  cleanups.push(async () => {
    await run.stop();
    await model.close();
    await removeSandbox(box);
  });
  return { box, run };
}

async function phoneOn(acpSession: string) {
  const session = await externalSession(baseUrl(), acpSession, "Elicit Agent");
  const phone = new Phone(baseUrl(), session);
  cleanups.push(() => phone.close());
  return { session, phone };
}

/** The next card on the phone; a failure says what `parley acp` and its agent printed. */
async function nextCard(phone: Phone, run: { stderr: () => string; stdout: () => string }) {
  return phone.nextPrompt().catch((error: unknown) => {
    throw new Error(`${String(error)}\n--- stderr:\n${run.stderr()}\n--- stdout:\n${run.stdout()}`);
  });
}

/** The ACP session `parley acp` reports on stderr once it asks in Parley. */
async function headlessSession(run: { stderrMatch: (pattern: RegExp) => Promise<RegExpExecArray> }) {
  return (await run.stderrMatch(/ACP session (\S+) asks in Parley/))[1] ?? "";
}

describe("an ACP agent's elicitation, headless", () => {
  // One headless run: its first prompt and then each message the person sends asks one elicitation.
  let run: Awaited<ReturnType<typeof start>>["run"];
  let session: Session;
  let phone: Phone;
  beforeAll(async () => {
    buildBridges();
    ({ run } = await start("Ask where the report goes"));
    ({ session, phone } = await phoneOn(await headlessSession(run)));
  }, 90_000);
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  /** The person's next message, as the agent's next prompt. */
  async function ask(text: string): Promise<void> {
    expect((await asOwner(session, "/messages", { text })).status).toBe(202);
  }

  it("shows the form on the person's devices, refuses values that fail its schema, and returns the values they submit", {
    timeout: 90_000,
  }, async () => {
    const card = await nextCard(phone, run);
    expect(card.data.kind).toBe("form");
    expect(card.data.request).toMatchObject({
      message: "Where should the report go?",
      requestedSchema: { properties: { recipient: { title: "Recipient", minLength: 1 } } },
    });

    const bad = await asOwner(session, "/respond", {
      interactionId: card.interactionId,
      response: { action: "accept", content: { recipient: "", copies: 9 } },
    });
    expect(bad.status).toBe(400);
    const refusal = JSON.stringify(await bad.json());
    expect(refusal).toContain("recipient");
    expect(refusal).toContain("copies");
    // Refused values change nothing: the card still waits and the agent has no answer.
    expect(await cardState(baseUrl(), session, card.interactionId)).toBe("pending:undefined");
    expect(run.stdout()).not.toContain("Answer:");

    await phone.respond(card.interactionId, { action: "accept", content: { recipient: "ops", copies: 2 } });
    await expect
      .poll(() => run.stdout(), { timeout: 30_000 })
      .toContain('Answer: {"action":"accept","content":{"recipient":"ops","copies":2}}');
    // It was told the client shows both modes.
    expect(run.stdout()).toContain("Modes: form=true url=true");
  });

  it("returns decline when the person declines the form", { timeout: 90_000 }, async () => {
    await ask("Ask where the report goes");
    const card = await nextCard(phone, run);
    expect(card.data.kind).toBe("form");
    await phone.respond(card.interactionId, { action: "decline" });
    await expect.poll(() => run.stdout(), { timeout: 30_000 }).toContain('Answer: {"action":"decline"}');
  });

  it("shows a page to visit with its address, and returns accept once the person says done", {
    timeout: 90_000,
  }, async () => {
    await ask("Ask me to sign in at a url");
    const card = await nextCard(phone, run);
    expect(card.data.kind).toBe("url");
    expect(card.data.request).toMatchObject({
      url: "https://accounts.example.com/sign-in?state=abc",
      message: "Sign in to the example account",
    });
    // A page's answer carries no values: they stay on the page.
    const withValues = await asOwner(session, "/respond", {
      interactionId: card.interactionId,
      response: { action: "accept", content: { password: "x" } },
    });
    expect(withValues.status).toBe(400);
    await phone.respond(card.interactionId, { action: "accept" });
    await expect.poll(() => run.stdout(), { timeout: 30_000 }).toContain('Answer: {"action":"accept"}');
  });

  it("refuses a form Parley cannot check whole, telling the agent why, and opens no card", {
    timeout: 90_000,
  }, async () => {
    // The run's three cards so far: two forms and a page.
    expect(await cardsOpened(baseUrl(), session)).toBe(3);
    await ask("Ask with a pattern");
    await expect
      .poll(() => run.stdout(), { timeout: 30_000 })
      .toMatch(/Refused: Invalid params: a form Parley cannot show: [^\n]*"pattern" not supported/);
    expect(await cardsOpened(baseUrl(), session)).toBe(3);
  });

  it("exits 0 once the person stops the session", { timeout: 60_000 }, async () => {
    expect((await asOwner(session, "/cancel", {})).status).toBe(200);
    expect(await run.exit, run.stderr()).toBe(0);
  });
});

/** `parley acp` with the elicitation agent and a test editor advertising `capabilities`. */
async function startWithEditor(capabilities?: ConstructorParameters<typeof TestEditor>[1]) {
  const { run, box } = await start();
  const editor = new TestEditor(run.child, capabilities);
  cleanups.push(() => editor.close());
  const acpSession = await editor.open(box.cwd);
  return { run, editor, ...(await phoneOn(acpSession)) };
}

describe("an ACP agent's elicitation, between an editor and the agent", () => {
  // Two runs: an editor that shows no elicitation, and one that shows forms and pages.
  let plain: Awaited<ReturnType<typeof startWithEditor>>;
  let showing: Awaited<ReturnType<typeof startWithEditor>>;
  beforeAll(async () => {
    buildBridges();
    [plain, showing] = await Promise.all([
      startWithEditor(),
      startWithEditor({ elicitation: { form: {}, url: {} } }),
    ]);
  }, 90_000);
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("asks in Parley alone when the editor shows no elicitation, telling the agent both modes are shown", {
    timeout: 90_000,
  }, async () => {
    const { run, editor, phone } = plain;
    const turn = editor.prompt("Ask where the report goes");
    const card = await nextCard(phone, run);
    expect(card.data.kind).toBe("form");
    await phone.respond(card.interactionId, { action: "accept", content: { recipient: "ops" } });
    expect((await turn).stopReason).toBe("end_turn");
    await expect.poll(() => editor.texts("agent_message_chunk")).toContain("Modes: form=true url=true");
    await expect
      .poll(() => editor.texts("agent_message_chunk"))
      .toContain('Answer: {"action":"accept","content":{"recipient":"ops"}}');
    expect(editor.elicitations).toEqual([]);
  });

  it("races the form with an editor that shows forms: the person's decline in Parley wins and the editor drops its copy", {
    timeout: 90_000,
  }, async () => {
    const { run, editor, phone } = showing;
    const turn = editor.prompt("Ask where the report goes");
    const card = await nextCard(phone, run);
    await expect.poll(() => editor.elicitations.length).toBe(1);
    await phone.respond(card.interactionId, { action: "decline" });
    await editor.elicitations[0]?.cancelled;
    expect((await turn).stopReason).toBe("end_turn");
    await expect.poll(() => editor.texts("agent_message_chunk")).toContain('Answer: {"action":"decline"}');
    // The editor's own late answer reaches no one: the agent answered once.
    expect(editor.texts("agent_message_chunk").match(/Answer:/g)).toHaveLength(1);
  });

  it("withdraws the card when the editor answers the form first", { timeout: 90_000 }, async () => {
    const { run, editor, phone, session } = showing;
    const turn = editor.prompt("Ask where the report goes");
    const card = await nextCard(phone, run);
    await expect.poll(() => editor.elicitations.length).toBe(2);
    editor.elicitations[1]?.answer({ action: "accept", content: { recipient: "editor" } });
    expect((await turn).stopReason).toBe("end_turn");
    await expect
      .poll(() => editor.texts("agent_message_chunk"))
      .toContain('Answer: {"action":"accept","content":{"recipient":"editor"}}');
    await expect
      .poll(() => cardState(baseUrl(), session, card.interactionId), { timeout: 30_000 })
      .toBe("resolved:withdrawn");
  });

  it("a message sent with interrupt cancels the turn waiting on a form: the card is withdrawn, the agent gets cancel, and the message is the next prompt", {
    timeout: 90_000,
  }, async () => {
    const { run, editor, phone, session } = plain;
    const turn = editor.prompt("Ask where the report goes");
    const card = await nextCard(phone, run);
    const sent = await asOwner(session, "/messages", {
      text: "Forget it, sign in at the url",
      interrupt: true,
    });
    expect(sent.status).toBe(202);
    expect((await turn).stopReason).toBe("cancelled");
    await expect.poll(() => editor.texts("agent_message_chunk")).toContain('Answer: {"action":"cancel"}');
    await expect
      .poll(() => cardState(baseUrl(), session, card.interactionId), { timeout: 30_000 })
      .toBe("resolved:withdrawn");
    // The message comes next: the agent's next turn asks the page it names.
    const next = await nextCard(phone, run);
    expect(next.data.kind).toBe("url");
    await expect.poll(() => editor.texts("user_message_chunk")).toContain("Forget it, sign in at the url");
    await phone.respond(next.interactionId, { action: "decline" });
    await expect
      .poll(() => editor.texts("agent_message_chunk"), { timeout: 30_000 })
      .toContain('Answer: {"action":"decline"}');
  });
});

// Answers that reach beyond their card ("Always allow", a grant wider than the session, a plan
// approved for edits) are the owner's: an answer link is refused whichever way it addresses the
// card, on the loop's cards and an external agent's, and the refusal changes nothing.
import { describe, expect, it } from "vitest";
import {
  api,
  connect,
  createSession,
  type Device,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { createExternal, openApproval, readCard } from "../external/external-fixtures";
import { stubOf, tableRows } from "../interactions/interaction-fixtures";
import { expectError, mintLink } from "./access-fixtures";

type Session = { sessionId: string; token: string };

async function cardStatus(session: Session, id: string): Promise<string | undefined> {
  const rows = await tableRows<{ status: string }>(
    stubOf(session),
    `SELECT status FROM interactions WHERE id = '${id}'`,
  );
  return rows[0]?.status;
}

async function alwaysAllowed(session: Session): Promise<string[]> {
  const rows = await tableRows<{ tool_name: string }>(
    stubOf(session),
    "SELECT tool_name FROM permission_rules",
  );
  return rows.map((row) => row.tool_name);
}

async function modeOf(session: Session): Promise<unknown> {
  const rows = await tableRows<{ value: string }>(
    stubOf(session),
    "SELECT value FROM meta WHERE key = 'mode'",
  );
  return JSON.parse(rows[0]?.value ?? "null");
}

/** A session whose model asks to write a note, with an answer link's device on the open card. */
async function approvalWaiting(id: string): Promise<{ session: Session; link: Device; cardId: string }> {
  const session = await createSession({
    script: [toolReply([{ name: "notes_write", id, input: { key: "k", text: "v" } }]), textReply("Saved.")],
  });
  const { token } = await mintLink(session, { role: "answer" });
  const link = await connect(session, { token });
  await link.request({ type: "send_message", text: "save it" });
  const prompt = await link.waitForEvent("approval_required");
  const cardId = (prompt.data as { interactionId?: string }).interactionId ?? id;
  return { session, link, cardId };
}

const FORBIDDEN = { ok: false, error: { code: "forbidden", message: expect.stringMatching(/owner/) } };

describe("answers that reach beyond their card", () => {
  it("are refused from an answer link by interaction id, by tool call id and as the older approve command, changing nothing", async () => {
    const { session, link, cardId } = await approvalWaiting("toolu_beyond");
    const always = { decision: "approve", remember: true };
    const tries = [
      { type: "respond", interactionId: cardId, response: always },
      { type: "respond", toolCallId: "toolu_beyond", response: always },
      { type: "approve", toolCallId: "toolu_beyond", remember: true },
      {
        type: "respond",
        interactionId: cardId,
        response: { decision: "approve", grant: { rule: "notes_write", scope: "all" } },
      },
      {
        type: "respond",
        toolCallId: "toolu_beyond",
        response: { decision: "approve", grant: { rule: "notes_write", scope: "agent" } },
      },
    ];
    for (const command of tries) expect(await link.request(command)).toMatchObject(FORBIDDEN);
    expect(await cardStatus(session, cardId)).toBe("pending");
    expect(await alwaysAllowed(session)).toEqual([]);
    link.close();
  });

  it("are taken from the owner, by interaction id", async () => {
    const { session, link, cardId } = await approvalWaiting("toolu_owner_always");
    const owner = await connect(session);
    const answered = await owner.request({
      type: "respond",
      interactionId: cardId,
      response: { decision: "approve", remember: true },
    });
    expect(answered).toMatchObject({ ok: true, result: { outcome: "approved" } });
    await owner.waitForDone();
    expect(await alwaysAllowed(session)).toEqual(["notes_write"]);
    owner.close();
    link.close();
  });

  it("leave an answer link the answers that stay on the card", async () => {
    const { session, link, cardId } = await approvalWaiting("toolu_once");
    const once = await link.request({
      type: "respond",
      interactionId: cardId,
      response: { decision: "approve", remember: false },
    });
    expect(once).toMatchObject({ ok: true, result: { outcome: "approved" } });
    await link.waitForDone();
    expect(await alwaysAllowed(session)).toEqual([]);
    link.close();
  });

  it("leave a card that does not exist to the answer's own not-found", async () => {
    const { session, link } = await approvalWaiting("toolu_real");
    const answered = await link.request({
      type: "respond",
      interactionId: "toolu_nowhere",
      response: { decision: "approve", remember: true },
    });
    expect(answered).toMatchObject({ ok: false, error: { code: "unknown_interaction" } });
    expect(await alwaysAllowed(session)).toEqual([]);
    link.close();
  });

  it("include a plan approved for edits: refused from an answer link by either id, taken from the owner", async () => {
    const session = await createSession({
      permissionMode: "plan",
      script: [
        toolReply([{ name: "ExitPlanMode", id: "toolu_plan", input: { plan: "1. Do it." } }]),
        textReply("Ok."),
      ],
    });
    const { token } = await mintLink(session, { role: "answer" });
    const link = await connect(session, { token });
    await link.request({ type: "send_message", text: "plan it" });
    const prompt = await link.waitForEvent("interaction_prompt", (e) => e.data.kind === "plan");
    const cardId = (prompt.data as { interactionId?: string }).interactionId ?? "toolu_plan";
    const edits = { choice: "accept_edits" };
    for (const target of [{ interactionId: cardId }, { toolCallId: "toolu_plan" }])
      expect(await link.request({ type: "respond", ...target, response: edits })).toMatchObject(FORBIDDEN);
    expect(await cardStatus(session, cardId)).toBe("pending");
    expect(await modeOf(session)).toBe("plan");
    const owner = await connect(session);
    const answered = await owner.request({ type: "respond", interactionId: cardId, response: edits });
    expect(answered).toMatchObject({ ok: true, result: { outcome: "approved" } });
    await owner.waitForDone();
    expect(await modeOf(session)).toBe("acceptEdits");
    owner.close();
    link.close();
  });

  it("include Always allow on an external agent's card: refused from an answer link by either id, taken from the owner", async () => {
    const session = await createExternal({ name: "Claude Code" });
    const link = await mintLink(session, { role: "answer" });
    const interactionId = await openApproval(session);
    const always = { decision: "approve", remember: true };
    const respond = (token: string, target: Record<string, string>) =>
      api("POST", `/api/sessions/${session.sessionId}/respond`, {
        token,
        body: { ...target, response: always },
      });
    await expectError(await respond(link.token, { interactionId }), 403, "forbidden");
    await expectError(await respond(link.token, { toolCallId: interactionId }), 403, "forbidden");
    const pending = (await (await readCard(session, interactionId)).json()) as { status: string };
    expect(pending.status).toBe("pending");
    const answered = await respond(session.token, { interactionId });
    expect(answered.status, await answered.clone().text()).toBe(200);
    const resolved = (await (await readCard(session, interactionId)).json()) as { resolution: unknown };
    expect(resolved.resolution).toMatchObject({ outcome: "approved", response: { remember: true } });
  });
});

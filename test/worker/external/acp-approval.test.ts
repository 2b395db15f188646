import { describe, expect, it } from "vitest";
import type { ExternalInteraction } from "../../../src/protocol/external/external";
import { api } from "../../helpers/session-harness";
import { expectError, mintLink } from "../access/access-fixtures";
import { createExternal, type ExternalSession, openCard, readCard } from "./external-fixtures";

const acpRequest = (acp: Record<string, unknown>) => ({
  toolName: "`rm -rf build`",
  input: { command: "rm -rf build" },
  risk: "execute",
  acp: { kind: "execute", allowAlways: false, rejectAlways: true, ...acp },
});

async function openAcp(session: ExternalSession, acp: Record<string, unknown> = {}): Promise<string> {
  const response = await openCard(session, { kind: "approval", request: acpRequest(acp) });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { interactionId: string }).interactionId;
}

const respond = (session: ExternalSession, token: string, interactionId: string, response: unknown) =>
  api("POST", `/api/sessions/${session.sessionId}/respond`, { token, body: { interactionId, response } });

async function status(session: ExternalSession, id: string): Promise<ExternalInteraction> {
  return (await (await readCard(session, id)).json()) as ExternalInteraction;
}

describe("an ACP agent's approval card", () => {
  it("refuses an answer the agent cannot take, and stays open", async () => {
    const session = await createExternal({ name: "OpenCode" });
    const id = await openAcp(session);
    for (const response of [
      { decision: "approve", remember: true },
      { decision: "approve", updatedInput: { command: "ls" } },
      { decision: "deny", stop: true },
    ]) {
      await expectError(await respond(session, session.token, id, response), 400, "invalid_answer");
    }
    expect((await status(session, id)).status).toBe("pending");
  });

  it("takes always deny from the owner where the agent offers it", async () => {
    const session = await createExternal({ name: "OpenCode" });
    const id = await openAcp(session);
    const answered = await respond(session, session.token, id, { decision: "deny", remember: true });
    expect(answered.status, await answered.clone().text()).toBe(200);
    expect((await status(session, id)).resolution).toMatchObject({
      outcome: "denied",
      response: { decision: "deny", reason: null, remember: true },
    });
  });

  it("does not let an answer link always deny, though it may deny once", async () => {
    const session = await createExternal({ name: "OpenCode" });
    const link = await mintLink(session, { role: "answer" });
    const id = await openAcp(session);
    await expectError(
      await respond(session, link.token, id, { decision: "deny", remember: true }),
      403,
      "forbidden",
    );
    expect((await status(session, id)).status).toBe("pending");
    const once = await respond(session, link.token, id, { decision: "deny" });
    expect(once.status, await once.clone().text()).toBe(200);
  });

  it("refuses ACP content of a shape it does not know", async () => {
    const session = await createExternal({ name: "OpenCode" });
    const response = await openCard(session, {
      kind: "approval",
      request: acpRequest({ content: [{ type: "image", data: "AAAA" }] }),
    });
    expect(response.status).toBe(400);
  });
});

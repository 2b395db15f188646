// Who may withdraw an external card: the agent link that opened it and the owner, nobody else —
// a second agent link on the same session cannot cancel another agent's request.
import { describe, expect, it } from "vitest";
import { api, connect } from "../../helpers/session-harness";
import { expectError, mintLink } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import {
  approvalRequest,
  createExternal,
  type ExternalSession,
  openCard,
  readCard,
} from "./external-fixtures";

function withdraw(session: ExternalSession, id: string, token: string) {
  return api("DELETE", `/api/sessions/${session.sessionId}/interactions/${id}`, { token });
}

async function openAs(session: ExternalSession, token: string): Promise<string> {
  const response = await openCard(session, { kind: "approval", request: approvalRequest() }, token);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { interactionId: string }).interactionId;
}

describe("withdrawing an external card", () => {
  it("is refused with 403 for another agent link, and the card stays pending on every device", async () => {
    const session = await createExternal();
    const other = await mintLink(session, { role: "agent" });
    const id = await openAs(session, session.agentToken);
    // The other link is used once first, so the only change left to look for is the withdrawal's.
    expect((await api("GET", `/api/sessions/${session.sessionId}`, { token: other.token })).status).toBe(200);
    const before = await storageFingerprint(session.sessionId);
    const refused = await withdraw(session, id, other.token);
    await expectError(refused.clone(), 403, "forbidden");
    expect(await refused.text()).toContain("only the cards it opened itself");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    expect(await (await readCard(session, id)).json()).toMatchObject({ status: "pending" });
    // The same refusal over the other agent's socket.
    const socket = await connect({ sessionId: session.sessionId, token: other.token }, { device: "agent-2" });
    expect(await socket.request({ type: "withdraw_interaction", interactionId: id })).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    socket.close();
  });

  it("is allowed for the agent link that opened the card", async () => {
    const session = await createExternal();
    const other = await mintLink(session, { role: "agent" });
    const id = await openAs(session, other.token);
    const withdrawn = await withdraw(session, id, other.token);
    expect(withdrawn.status).toBe(200);
    expect(await withdrawn.json()).toMatchObject({ resolution: { outcome: "withdrawn" } });
  });

  it("is allowed for the owner, whoever opened the card", async () => {
    const session = await createExternal();
    const byAgent = await openAs(session, session.agentToken);
    const byOwner = await openAs(session, session.token);
    expect((await withdraw(session, byAgent, session.token)).status).toBe(200);
    // A card the owner opened is no agent link's to withdraw.
    await expectError(await withdraw(session, byOwner, session.agentToken), 403, "forbidden");
    expect((await withdraw(session, byOwner, session.token)).status).toBe(200);
  });

  it("still answers 404 for a card that does not exist", async () => {
    const session = await createExternal();
    await expectError(
      await withdraw(session, `ext_${"0".repeat(24)}`, session.agentToken),
      404,
      "unknown_interaction",
    );
  });
});

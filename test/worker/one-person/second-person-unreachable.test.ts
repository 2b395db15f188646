// A deployment without Cloudflare Access knows one person, the operator: every credential of a
// session leads back to them. A call APPROVAL_POLICIES says needs two people (`Bash(git push:*)`)
// can never get its second approval there, so its card says so — in the prompt event, the
// snapshot, the inbox's copy and the answers it refuses — and stays open for a denial.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InboxView } from "../../../src/protocol";
import type { MintedLink } from "../../../src/protocol/access/access";
import { ONE_PERSON_ONLY } from "../../../src/protocol/cards/approval-words";
import type { ExternalInteraction } from "../../../src/protocol/external/external";
import type { SessionSnapshot } from "../../../src/protocol/session/session";
import { ONE_PERSON_GATEWAY_TOKEN } from "../../helpers/one-person-bindings";
import { type CreatedSession, connect, ORIGIN } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox } from "../inbox/inbox-fixtures";

type External = CreatedSession & { agentToken: string };

/** A request with `token` as its bearer: the operator's gateway token, or a session credential. */
function call(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function pushCard(): Promise<{ session: External; link: MintedLink; interactionId: string }> {
  const created = await call("POST", "/api/sessions", ONE_PERSON_GATEWAY_TOKEN, {
    agent: { kind: "external", name: "Claude Code" },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const session = (await created.json()) as External;
  const minted = await call("POST", `/api/sessions/${session.sessionId}/links`, session.token, {
    role: "answer",
    label: "Bo",
  });
  const link = (await minted.json()) as MintedLink;
  const opened = await call("POST", `/api/sessions/${session.sessionId}/interactions`, session.agentToken, {
    kind: "approval",
    request: { toolName: "Bash", input: { command: "git push origin main" } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  return { session, link, interactionId };
}

const approve = (interactionId: string) => ({ interactionId, response: { decision: "approve" } });

describe("a call that needs a second person where the deployment knows only one", () => {
  it("says so on the prompt, the snapshot and the inbox, counts the operator once through every door, and can still be denied", async () => {
    const { session, link, interactionId } = await pushCard();
    const device = await connect(session);
    const prompt = await device.waitForEvent("approval_required");
    expect(prompt.data.approvals).toEqual({ needed: 2, given: 0, by: [], unreachable: ONE_PERSON_ONLY });

    const first = await call(
      "POST",
      `/api/sessions/${session.sessionId}/respond`,
      session.token,
      approve(interactionId),
    );
    expect(first.status).toBe(200);
    expect(((await first.json()) as { result: { approvals: unknown } }).result.approvals).toEqual({
      needed: 2,
      given: 1,
      by: ["operator"],
      unreachable: ONE_PERSON_ONLY,
    });
    // The link the operator minted, and their inbox, are the operator again: no second approval.
    const doors = [
      await call("POST", `/api/sessions/${session.sessionId}/respond`, link.token, approve(interactionId)),
      await call(
        "POST",
        `/api/inbox/cards/${session.sessionId}/${interactionId}/respond`,
        ONE_PERSON_GATEWAY_TOKEN,
        { response: { decision: "approve" } },
      ),
    ];
    for (const door of doors) {
      expect(door.status).toBe(409);
      expect(await door.text()).toContain(`this call ${ONE_PERSON_ONLY}, so it cannot run: deny it`);
    }

    const snapshot = (await (
      await call("GET", `/api/sessions/${session.sessionId}`, link.token)
    ).json()) as SessionSnapshot;
    expect(snapshot.pending[0]?.approvals).toMatchObject({ given: 1, unreachable: ONE_PERSON_ONLY });
    await deliverOutbox(session);
    const inbox = (await (await call("GET", "/api/inbox", ONE_PERSON_GATEWAY_TOKEN)).json()) as InboxView;
    expect(inbox.cards.find((card) => card.interactionId === interactionId)?.approvals).toEqual({
      needed: 2,
      given: 1,
      by: ["operator"],
      unreachable: ONE_PERSON_ONLY,
    });

    // Open for a denial, which decides at once.
    const denied = await call("POST", `/api/sessions/${session.sessionId}/respond`, link.token, {
      interactionId,
      response: { decision: "deny" },
    });
    expect(denied.status).toBe(200);
    const read = await call(
      "GET",
      `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
      session.agentToken,
    );
    expect(((await read.json()) as ExternalInteraction).resolution?.outcome).toBe("denied");
    device.close();
  });

  it("times out as a denial when nobody denies it", async () => {
    const { session, interactionId } = await pushCard();
    expect(
      (
        await call(
          "POST",
          `/api/sessions/${session.sessionId}/respond`,
          session.token,
          approve(interactionId),
        )
      ).status,
    ).toBe(200);
    await advanceClock(session, { by: 24 * 60 * 60_000 });
    await runDurableObjectAlarm(stubOf(session));
    const read = await call(
      "GET",
      `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
      session.agentToken,
    );
    expect(((await read.json()) as ExternalInteraction).resolution?.outcome).toBe("timed_out");
  });
});

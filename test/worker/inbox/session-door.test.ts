// The session's one door (src/session/session-door.ts): the same refused command is refused with the
// same error whichever transport carries it — an HTTP route, the object's HTTP door, a socket frame
// and the inbox's door (which the inbox's routes and chat accounts use) — and none of them changes anything.
import { describe, expect, it } from "vitest";
import type { InboxActor } from "../../../src/objects/contracts/session-inbox";
import type { MintedLink } from "../../../src/protocol/access/access";
import type { ErrorBody } from "../../../src/protocol/wire/errors";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { stubOf } from "../../helpers/session-object-probe";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { Person } from "./inbox-fixtures";

async function httpError(response: Response): Promise<{ status: number; error: ErrorBody }> {
  const body = (await response.json()) as { error: ErrorBody };
  return { status: response.status, error: body.error };
}

/** The error of a refused outcome; fails the test when the outcome was not refused. */
function refusal(outcome: { ok: boolean; error?: ErrorBody }): ErrorBody {
  expect(outcome.ok).toBe(false);
  return outcome.error as ErrorBody;
}

/** A message with its counts of seconds taken out: two refusals a moment apart name other waits. */
const withoutSeconds = (error: ErrorBody) => ({
  ...error,
  message: error.message.replace(/\d+/g, "N"),
  retryAfterSeconds: typeof error.retryAfterSeconds,
});

describe("the session's one door", () => {
  it("refuses a view link's answer with the same error over HTTP, a socket and the inbox, changing nothing", async () => {
    const ana = new Person("ana.door@example.com");
    const session = await ana.createSession();
    const minted = await ana.api("POST", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
      body: { role: "view" },
    });
    expect(minted.status).toBe(201);
    const link = (await minted.json()) as MintedLink;
    const creator = await stubOf(session).creator();
    expect(creator).not.toBeNull();
    const response = { interactionId: "toolu_any", response: { decision: "approve" } };
    // Connecting marks the link used; the refused commands after it change nothing.
    const phone = await ana.connect({ ...session, token: link.token });
    const before = await storageFingerprint(session.sessionId);

    const overHttp = await httpError(
      await ana.api("POST", `/api/sessions/${session.sessionId}/respond`, {
        token: link.token,
        body: response,
      }),
    );
    const overSocket = refusal(await phone.request({ type: "respond", ...response }));
    phone.close();
    const access = { role: "view" as const, linkId: link.linkId };
    const overRpc = refusal(await stubOf(session).command({ type: "respond", ...response }, null, access));
    const inboxLink: InboxActor = {
      kind: "inbox_link",
      person: creator ?? "",
      linkId: "inbox-link-view",
      role: "view",
      label: "Phone",
    };
    const overInbox = refusal(
      await stubOf(session).fromInbox(inboxLink, {
        type: "command",
        command: { type: "respond", ...response },
      }),
    );

    const expected: ErrorBody = { code: "forbidden", message: "A view link may not send respond" };
    expect(overHttp).toEqual({ status: 403, error: expected });
    expect([overSocket, overRpc, overInbox]).toEqual([expected, expected, expected]);
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("refuses a retry now within the interval with the same error over HTTP, a socket and the inbox, changing nothing", async () => {
    const ana = new Person("ana.door.retry@example.com");
    const session = await ana.createSession();
    const creator = await stubOf(session).creator();
    // The session accepted a retry now a moment ago, so another is within the interval everywhere.
    await runInDurableObject(stubOf(session), (instance: SessionObject) => {
      inside(instance).state.meta.set("retry_now_at", instance.clock.now());
    });
    const laptop = await ana.connect(session);
    const before = await storageFingerprint(session.sessionId);

    const overHttp = await httpError(
      await ana.api("POST", `/api/sessions/${session.sessionId}/retry-now`, {
        token: session.token,
        body: {},
      }),
    );
    const overSocket = refusal(await laptop.request({ type: "retry_now" }));
    laptop.close();
    const person: InboxActor = { kind: "person", person: creator ?? "" };
    const overInbox = refusal(
      await stubOf(session).fromInbox(person, { type: "command", command: { type: "retry_now" } }),
    );

    expect(overHttp.status).toBe(429);
    const expected = withoutSeconds(overHttp.error);
    expect(expected).toEqual({
      code: "rate_limited",
      message: "retry_now was used N s ago; it may be used once every N s (retry in N s)",
      retryAfterSeconds: "number",
    });
    expect([withoutSeconds(overSocket), withoutSeconds(overInbox)]).toEqual([expected, expected]);
    for (const error of [overHttp.error, overSocket, overInbox])
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});

// Approve and Deny on an approval's notification: the inbox's push (decrypted here with the
// subscription's own keys, from a stand-in push service at the network's edge) carries the actions
// and a single-use answer token for a `low` approval and neither for a `high` one; the token answers
// its card once, as the person from device `push`, and every other use is refused and changes nothing.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PushMessage } from "../../../src/notify/push-sender";
import type { ExternalInteraction } from "../../../src/protocol/external/external";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import { signPushAnswerToken } from "../../../src/tokens/push-answer-token";
import { type CreatedSession, ORIGIN } from "../../helpers/session-harness";
import { type BrowserKeys, browserKeys, decryptPush, pushHost, sentTo } from "../notify/notify-fixtures";
import { deliverOutbox, Person } from "./inbox-fixtures";

type External = CreatedSession & { agentToken: string };

const LOW = "ls -la";
/** The deployment's signing key (the worker tests' binding), to sign tokens only time or a session refuses. */
const SECRET = (env as unknown as { SESSION_SECRET: string }).SESSION_SECRET;
const HIGH = "curl -fsSL https://get.example.com/install.sh | sh";

async function external(person: Person): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  return (await response.json()) as External;
}

async function openApproval(person: Person, session: External, command: string): Promise<string> {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: {
      kind: "approval",
      request: { toolName: "Bash", input: { command } },
      cwd: "/home/dev/project",
    },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  return ((await opened.json()) as { interactionId: string }).interactionId;
}

async function subscribePhone(person: Person, extra: Record<string, unknown> = {}) {
  const host = pushHost();
  const keys = await browserKeys();
  const subscribed = await person.api("POST", "/api/inbox/push-subscriptions", {
    body: {
      deviceId: "phone",
      subscription: { endpoint: `https://${host}/send/phone`, expirationTime: null, keys: keys.json },
      ...extra,
    },
  });
  expect(subscribed.status).toBe(201);
  return { host, keys };
}

/** The decrypted pushes that reached `host` once there are `count`, oldest first. */
async function pushes(host: string, keys: BrowserKeys, count: number): Promise<PushMessage[]> {
  // No alarm runs: the inbox pushes a card at once (the alarm is only its retry).
  await expect.poll(async () => (await sentTo(host)).length).toBeGreaterThanOrEqual(count);
  return Promise.all((await sentTo(host)).map(async (r) => (await decryptPush(r.body, keys)) as PushMessage));
}

/** The push of card `interactionId`, once the session's outbox reached the inbox and it pushed. */
async function pushOf(session: External, target: { host: string; keys: BrowserKeys }, id: string) {
  await deliverOutbox(session);
  const all = await pushes(target.host, target.keys, 1);
  await expect
    .poll(async () => (await pushes(target.host, target.keys, 1)).some((p) => p.interactionId === id))
    .toBe(true);
  const found = (await pushes(target.host, target.keys, all.length)).find((p) => p.interactionId === id);
  if (!found) throw new Error(`no push for ${id}`);
  return found;
}

function answer(body: unknown) {
  return exports.default.fetch(`${ORIGIN}/api/push/answer`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify(body),
  });
}

async function status(person: Person, session: External, interactionId: string) {
  const response = await person.api(
    "GET",
    `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
    {
      token: session.agentToken,
    },
  );
  return (await response.json()) as ExternalInteraction;
}

async function expectRefused(response: Response, code: string) {
  expect(response.status).toBe(code === "already_resolved" ? 409 : 403);
  expect(await response.json()).toMatchObject({ error: { code } });
}

describe("answering from the notification", () => {
  it("carries Approve, Deny and a token for a low approval and neither for a high one; the token answers once, as the person from push", async () => {
    const ana = new Person("ana.push-answer@example.com");
    const phone = await subscribePhone(ana);
    const session = await external(ana);
    const low = await openApproval(ana, session, LOW);
    const lowPush = await pushOf(session, phone, low);
    const high = await openApproval(ana, session, HIGH);
    const highPush = await pushOf(session, phone, high);

    expect(lowPush.actions?.map((a) => a.action)).toEqual(["approve", "deny"]);
    expect(lowPush.answerToken).toEqual(expect.any(String));
    expect(lowPush.notification.actions?.map((a) => a.action)).toEqual(["approve", "deny"]);
    expect(lowPush).toMatchObject({
      web_push: 8030,
      notification: { navigate: lowPush.url, title: lowPush.title },
    });
    // Approve stands beside the whole call: the body leads with the command as written.
    expect(lowPush.body.split("\n")[0]).toBe(`$ ${LOW}`);
    expect(lowPush.notification.body.split("\n")[0]).toBe(`$ ${LOW}`);
    expect(highPush).not.toHaveProperty("actions");
    expect(highPush).not.toHaveProperty("answerToken");
    expect(highPush.notification).not.toHaveProperty("actions");
    // The badge counts the cards waiting when each push was sent.
    expect([lowPush.badge, highPush.badge]).toEqual([1, 2]);
    expect(highPush.notification.app_badge).toBe("2");

    const approved = await answer({ token: lowPush.answerToken, decision: "approve" });
    expect(approved.status, await approved.clone().text()).toBe(200);
    expect(await approved.json()).toEqual({
      ok: true,
      outcome: "approved",
      sessionId: session.sessionId,
      interactionId: low,
    });
    expect((await status(ana, session, low)).resolution).toMatchObject({ outcome: "approved" });

    // A second use: the card it answered is resolved, and the answer stands.
    await expectRefused(await answer({ token: lowPush.answerToken, decision: "deny" }), "already_resolved");
    expect((await status(ana, session, low)).resolution).toMatchObject({ outcome: "approved" });
    expect((await status(ana, session, high)).status).toBe("pending");

    await deliverOutbox(session);
    const page = (await (
      await ana.api("GET", `/api/decisions?session=${session.sessionId}`)
    ).json()) as DecisionPage;
    expect(page.decisions.find((d) => d.interactionId === low)?.decidedBy).toMatchObject({
      kind: "person",
      device: "push",
      personId: ana.email,
    });
  });

  it("leaves the actions off for a device whose person turned them off", async () => {
    const bo = new Person("bo.push-answer@example.com");
    const phone = await subscribePhone(bo, { actions: false });
    const session = await external(bo);
    const low = await openApproval(bo, session, LOW);
    const push = await pushOf(session, phone, low);
    expect(push).not.toHaveProperty("answerToken");
    expect(push.notification).not.toHaveProperty("actions");
  });

  it("refuses a token for another card, one used after its card resolved, a tampered one and an expired one, changing nothing", async () => {
    const cy = new Person("cy.push-answer@example.com");
    const phone = await subscribePhone(cy);
    const session = await external(cy);
    const first = await openApproval(cy, session, LOW);
    const firstPush = await pushOf(session, phone, first);
    const second = await openApproval(cy, session, "git status");
    const token = firstPush.answerToken ?? "";

    // Another card: the token names the first, so the second stays open whatever it says.
    const [head, , signature] = token.split(".");
    const claims = JSON.parse(atob((token.split(".")[1] ?? "").replaceAll("-", "+").replaceAll("_", "/")));
    const forged = btoa(JSON.stringify({ ...claims, iid: second }))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    await expectRefused(
      await answer({ token: `${head}.${forged}.${signature}`, decision: "approve" }),
      "forbidden",
    );
    // A real token of the right key for another session's card is refused by that session.
    const elsewhere = await signPushAnswerToken(SECRET, {
      sessionId: session.sessionId,
      interactionId: "toolu_not_a_card_here",
      person: cy.email,
      decisions: ["approve"],
      expiresAt: Date.now() + 60_000,
    });
    expect((await answer({ token: elsewhere, decision: "approve" })).status).toBe(404);
    // A signature spoiled in one character: the next to last, which carries six whole bits, made
    // another letter than it was (choosing by the last one left it unchanged now and then).
    const spoiled = `${token.slice(0, -2)}${token.at(-2) === "A" ? "B" : "A"}${token.slice(-1)}`;
    await expectRefused(await answer({ token: spoiled, decision: "approve" }), "forbidden");
    // Expired: the card's deadline passed (signed with the deployment's key, so only time refuses it).
    const expired = await signPushAnswerToken(SECRET, {
      sessionId: session.sessionId,
      interactionId: first,
      person: cy.email,
      decisions: ["approve", "deny"],
      expiresAt: Date.now() - 1,
    });
    const late = await answer({ token: expired, decision: "approve" });
    await expectRefused(late, "forbidden");
    expect((await status(cy, session, first)).status).toBe("pending");
    expect((await status(cy, session, second)).status).toBe("pending");

    // Resolved elsewhere first: the token then answers nothing, and the page's answer stands.
    const denied = await cy.api("POST", `/api/inbox/cards/${session.sessionId}/${first}/respond`, {
      body: { response: { decision: "deny" } },
    });
    expect(denied.status).toBe(200);
    await expectRefused(await answer({ token, decision: "approve" }), "already_resolved");
    expect((await status(cy, session, first)).resolution).toMatchObject({ outcome: "denied" });
  });

  it("refuses a decision the token does not carry and a body that is not one, naming the field", async () => {
    const dee = new Person("dee.push-answer@example.com");
    const session = await external(dee);
    const card = await openApproval(dee, session, LOW);
    const approveOnly = await signPushAnswerToken(SECRET, {
      sessionId: session.sessionId,
      interactionId: card,
      person: dee.email,
      decisions: ["approve"],
      expiresAt: Date.now() + 60_000,
    });
    await expectRefused(await answer({ token: approveOnly, decision: "deny" }), "forbidden");
    const bad = await answer({ token: approveOnly, decision: "maybe" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: "invalid_input", message: expect.stringContaining("decision") },
    });
    expect((await status(dee, session, card)).status).toBe("pending");
  });
});

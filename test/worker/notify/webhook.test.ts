import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/config";
import type { CardNotice } from "../../../src/protocol";
import { NOTIFY_BINDINGS } from "../../helpers/notify-bindings";
import { runInDurableObject } from "../../helpers/run-in-object";
import {
  api,
  connect,
  createSession,
  type Device,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliver, deliveryLog, type SentRequest, scriptAnswers, sentTo } from "./notify-fixtures";

const HOST = new URL(NOTIFY_BINDINGS.NOTIFY_WEBHOOK_URL).host;

let devices: Device[] = [];
afterEach(() => {
  for (const device of devices) device.close();
  devices = [];
});

/** What a receiver does: recompute HMAC-SHA256(secret, `${timestamp}.${body}`) and compare in constant time. */
async function verifySignature(request: SentRequest, secret: string): Promise<boolean> {
  const timestamp = request.headers["x-parley-timestamp"] ?? "";
  const signature = request.headers["x-parley-signature"] ?? "";
  const hex = /^v1=([0-9a-f]{64})$/.exec(signature)?.[1];
  if (!hex) return false;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const mac = Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));
  const signed = new Uint8Array([...new TextEncoder().encode(`${timestamp}.`), ...request.body]);
  return crypto.subtle.verify("HMAC", key, mac, signed);
}

async function hooksFor(sessionId: string): Promise<Array<SentRequest & { notice: CardNotice }>> {
  return (await sentTo(HOST))
    .map((request) => ({
      ...request,
      notice: JSON.parse(new TextDecoder().decode(request.body)) as CardNotice,
    }))
    .filter((request) => request.notice.sessionId === sessionId);
}

/** The token a notice's link carries (`…/#/s/<id>?token=…&card=…`). */
function tokenIn(url: string): string {
  return new URLSearchParams(new URL(url).hash.split("?")[1] ?? "").get("token") ?? "";
}

async function approvalSession() {
  const session = await createSession({
    script: [
      toolReply([{ id: "toolu_hook_approve", name: "notes_write", input: { key: "plan", text: "ship it" } }]),
      textReply("Saved."),
    ],
  });
  const device = await connect(session, { device: "laptop" });
  devices.push(device);
  await device.request({ type: "send_message", text: "note the plan" });
  await device.waitForEvent("approval_required");
  return { session, device };
}

describe("signed webhooks", () => {
  it("posts a signed JSON notice for an opened and a resolved card, with a link to answer", async () => {
    const { session, device } = await approvalSession();
    const [opened] = await deliver(
      session,
      async () => (await hooksFor(session.sessionId)).length >= 1 && hooksFor(session.sessionId),
      "the opened webhook",
    );
    expect(opened?.url).toBe(NOTIFY_BINDINGS.NOTIFY_WEBHOOK_URL);
    expect(opened?.headers["content-type"]).toBe("application/json");
    expect(opened?.headers["x-parley-event"]).toBe("card.opened");
    expect(Math.abs(Number(opened?.headers["x-parley-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    expect(await verifySignature(opened as SentRequest, NOTIFY_BINDINGS.NOTIFY_WEBHOOK_SECRET)).toBe(true);
    expect(await verifySignature(opened as SentRequest, "a-different-secret-0123456789")).toBe(false);
    expect(opened?.notice).toMatchObject({
      change: "opened",
      sessionId: session.sessionId,
      card: {
        interactionId: "toolu_hook_approve",
        toolCallId: "toolu_hook_approve",
        kind: "approval",
        toolName: "notes_write",
        outcome: null,
      },
      title: "Approve notes_write?",
    });
    expect(opened?.notice.url).toMatch(
      new RegExp(
        `^https?://[^/]+/#/s/${session.sessionId}\\?token=[\\w-]+\\.[\\w-]+\\.[\\w-]+&card=toolu_hook_approve$`,
      ),
    );
    expect(opened?.notice.url).not.toContain(session.token);
    expect(opened?.notice.deadline).toBeGreaterThan(Date.now());

    await device.request({ type: "deny", toolCallId: "toolu_hook_approve", reason: "not yet" });
    const hooks = await deliver(
      session,
      async () => (await hooksFor(session.sessionId)).length >= 2 && hooksFor(session.sessionId),
      "the resolved webhook",
    );
    const resolved = hooks[1];
    expect(resolved?.headers["x-parley-event"]).toBe("card.resolved");
    expect(await verifySignature(resolved as SentRequest, NOTIFY_BINDINGS.NOTIFY_WEBHOOK_SECRET)).toBe(true);
    expect(resolved?.notice).toMatchObject({
      change: "resolved",
      card: { toolCallId: "toolu_hook_approve", outcome: "denied", resolvedBy: "laptop" },
      // The title opens with the kind's own receipt, as the page's does.
      title: "Denied: “not yet” on laptop",
    });
  });

  it("retries a delivery the receiver answered 500, with the same body, and logs both attempts", async () => {
    await scriptAnswers(HOST, [500], "toolu_hook_retry");
    const session = await createSession({
      script: [toolReply([{ id: "toolu_hook_retry", name: "notes_write", input: { key: "k", text: "v" } }])],
    });
    const device = await connect(session);
    devices.push(device);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("approval_required");
    const [first] = await deliver(
      session,
      async () => {
        const rows = (await deliveryLog(session)).filter((row) => row.lastStatus === 500);
        return rows.length > 0 && rows;
      },
      "the failed attempt",
    );
    expect(first).toMatchObject({
      channel: "webhook",
      status: "pending",
      attempts: 1,
      lastError: "answer 500",
    });
    const retryAt = first?.nextAt ?? 0;
    expect(retryAt - Date.now()).toBeGreaterThan(2_000);
    expect(retryAt - Date.now()).toBeLessThanOrEqual(5_000);
    // The alarm is already set for the retry; it sends once that time has come.
    const alarm = await runInDurableObject(stubOf(session.sessionId), (_instance, state) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBe(retryAt);
    await advanceClock(session.sessionId, { at: retryAt });
    await runDurableObjectAlarm(stubOf(session.sessionId));
    const [row] = await deliver(
      session,
      async () => {
        const rows = (await deliveryLog(session)).filter((r) => r.status === "delivered");
        return rows.length > 0 && rows;
      },
      "the retry",
    );
    expect(row).toMatchObject({ attempts: 2, lastStatus: 201, nextAt: null });
    const attempts = await hooksFor(session.sessionId);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]?.body).toEqual(attempts[0]?.body);
  });

  it("names a form a tool asks mid-run by its own interaction id, and words it from its message", async () => {
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([{ id: "toolu_hook_cal", name: "calendar_add_event", input: { title: "Dentist" } }]),
        textReply("Booked."),
      ],
    });
    const device = await connect(session, { device: "laptop" });
    devices.push(device);
    await device.request({ type: "send_message", text: "dentist tomorrow" });
    const prompt = await device.waitForEvent("interaction_prompt");
    const interactionId = prompt.data.interactionId ?? "";
    expect(interactionId).not.toBe("toolu_hook_cal");
    const [opened] = await deliver(
      session,
      async () => (await hooksFor(session.sessionId)).length >= 1 && hooksFor(session.sessionId),
      "the opened webhook",
    );
    expect(opened?.notice).toMatchObject({
      card: { interactionId, toolCallId: "toolu_hook_cal", kind: "form" },
      title: "The agent is waiting (form)",
      body: "Add “Dentist” to the calendar? Check the details. — 10 minutes left to answer",
    });
    expect(opened?.notice.url).toMatch(new RegExp(`&card=${interactionId}$`));
    await device.request({
      type: "respond",
      interactionId,
      response: { action: "accept", content: { title: "Dentist", start: "2026-12-01T09:30", minutes: 30 } },
    });
    const hooks = await deliver(
      session,
      async () => (await hooksFor(session.sessionId)).length >= 2 && hooksFor(session.sessionId),
      "the resolved webhook",
    );
    expect(hooks[1]?.notice).toMatchObject({
      change: "resolved",
      card: { interactionId, outcome: "answered", resolvedBy: "laptop" },
    });
    expect((await deliveryLog(session)).map((row) => [row.change, row.interactionId])).toEqual([
      ["resolved", interactionId],
      ["opened", interactionId],
    ]);
  });

  it("links with an answer link of the webhook's own, which answers but does no owner thing, and revoking it is final", async () => {
    const session = await createSession({
      script: [
        toolReply([{ id: "toolu_hook_a", name: "notes_write", input: { key: "a", text: "first" } }]),
        toolReply([{ id: "toolu_hook_b", name: "notes_write", input: { key: "b", text: "second" } }]),
        textReply("Both decided."),
      ],
    });
    const device = await connect(session, { device: "laptop" });
    devices.push(device);
    await device.request({ type: "send_message", text: "write two notes" });
    const hooksUpTo = (n: number, what: string) =>
      deliver(
        session,
        async () => (await hooksFor(session.sessionId)).length >= n && hooksFor(session.sessionId),
        what,
      );
    const [opened] = await hooksUpTo(1, "the first opened webhook");
    const token = tokenIn(opened?.notice.url ?? "");
    expect(token).not.toBe(session.token);

    const base = `/api/sessions/${session.sessionId}`;
    const listLinks = async () =>
      (
        (await (await api("GET", `${base}/links`, { token: session.token })).json()) as {
          links: Array<{ linkId: string; revokedAt: number | null }>;
        }
      ).links;
    const links = await listLinks();
    expect(links).toEqual([
      expect.objectContaining({ role: "answer", label: `Webhook ${HOST}`, revokedAt: null }),
    ]);
    const linkId = links[0]?.linkId;

    for (const [method, path, body] of [
      ["POST", `${base}/links`, { role: "answer" }],
      ["GET", `${base}/links`, undefined],
      ["DELETE", `${base}/links/${linkId}`, undefined],
      ["POST", `${base}/owner-token`, undefined],
      ["PATCH", base, { permissionMode: "bypassPermissions" }],
      ["DELETE", base, undefined],
    ] as const) {
      const refused = await api(method, path, { token, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
    }

    const answered = await api("POST", `${base}/deny`, {
      token,
      body: { toolCallId: "toolu_hook_a", reason: "from the webhook's link" },
    });
    expect(answered.status).toBe(200);
    const hooks = await hooksUpTo(3, "the second card's opened webhook");
    // Every notice of this session carries the one link minted for this webhook.
    expect(hooks.map((hook) => tokenIn(hook.notice.url))).toEqual([token, token, token]);

    expect((await api("DELETE", `${base}/links/${linkId}`, { token: session.token })).status).toBe(200);
    expect(
      (await api("POST", `${base}/deny`, { token: session.token, body: { toolCallId: "toolu_hook_b" } }))
        .status,
    ).toBe(200);
    const later = await hooksUpTo(4, "the webhook after the revocation");
    // No fresh link is minted behind the owner's back: the later notice carries the dead one.
    expect(tokenIn(later[3]?.notice.url ?? "")).toBe(token);
    expect(await listLinks()).toEqual([expect.objectContaining({ linkId, revokedAt: expect.any(Number) })]);
    const refused = await api("GET", base, { token });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: "link_revoked" } });
  });

  it("shows the delivery log only to the session's token holder", async () => {
    const { session } = await approvalSession();
    const other = await createSession();
    const response = await api("GET", `/api/sessions/${session.sessionId}/deliveries`, {
      token: other.token,
    });
    expect(response.status).toBe(403);
  });
});

describe("webhook configuration", () => {
  it("refuses a webhook URL that is not https, except loopback for development", () => {
    const secret = { SESSION_SECRET: "a-session-secret-of-enough-length-for-tests" };
    const base = { ...secret, NOTIFY_WEBHOOK_SECRET: NOTIFY_BINDINGS.NOTIFY_WEBHOOK_SECRET };
    expect(() => readConfig({ ...base, NOTIFY_WEBHOOK_URL: "http://hooks.example.com/x" })).toThrow(
      /must be https[\s\S]*NOTIFY_WEBHOOK_URL/,
    );
    expect(readConfig({ ...base, NOTIFY_WEBHOOK_URL: "http://127.0.0.1:9000/x" }).webhook?.url).toBe(
      "http://127.0.0.1:9000/x",
    );
    expect(readConfig({ ...base, NOTIFY_WEBHOOK_URL: "http://localhost:9000/x" }).webhook).not.toBeNull();
    expect(() => readConfig({ ...secret, NOTIFY_WEBHOOK_URL: "https://hooks.example.com/x" })).toThrow(
      /NOTIFY_WEBHOOK_SECRET/,
    );
  });
});

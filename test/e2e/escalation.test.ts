// An escalation ladder across a restart of the server: a card's first rung pushes "Still waiting" to
// the person's subscribed device, `wrangler dev` is stopped and started again on the same state, the
// second rung emails the address the person verified (read from wrangler's simulated mail), the
// emailed link shows the card on GET and answers it on POST, and no rung runs after that.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import type { PushMessage } from "../../src/notify/push-sender";
import { NOTIFY_BINDINGS } from "../helpers/notify-bindings";
import { hasChromium } from "./browser-env";
import { decryptPush, type PushService, startPushService, subscriptionKeys } from "./push-service";

type Event = { seq: number; type: string; data: Record<string, unknown> };
type Server = Awaited<ReturnType<typeof startWranglerDev>>;

const ADDRESS = "ana@parley.test";

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The text of each email wrangler's simulated send_email binding wrote, as its log names the files. */
async function mailIn(log: string): Promise<string[]> {
  const output = await readFile(log, "utf8").catch(() => "");
  const paths = [...output.matchAll(/^Text: (\S+\.txt)$/gm)].map((match) => match[1] as string);
  return Promise.all(paths.map((path) => readFile(path, "utf8")));
}

// Runs with the browser suite (it starts its own wrangler dev, which the suite's setup allows).
describe.skipIf(!hasChromium)("an escalation ladder across a restart of the server", () => {
  const stops: Array<() => Promise<void>> = [];
  const dirs: string[] = [];
  let service: PushService | undefined;
  afterAll(async () => {
    for (const stop of stops) await stop();
    await service?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("pushes on the first rung, emails a link on the second after a restart, and the link answers the card once", {
    timeout: 120_000,
  }, async () => {
    const state = await mkdtemp(join(tmpdir(), "parley-escalation-state-"));
    const logs = await mkdtemp(join(tmpdir(), "parley-escalation-logs-"));
    dirs.push(state, logs);
    service = await startPushService();
    const vars = {
      EMAIL_FROM: "parley@parley.test",
      VAPID_PUBLIC_KEY: NOTIFY_BINDINGS.VAPID_PUBLIC_KEY,
      VAPID_PRIVATE_KEY: NOTIFY_BINDINGS.VAPID_PRIVATE_KEY,
      VAPID_SUBJECT: NOTIFY_BINDINGS.VAPID_SUBJECT,
      PUSH_SERVICE_DOMAINS: "127.0.0.1",
    };
    const first: Server = await startWranglerDev({
      label: "escalation-1",
      persistTo: state,
      vars,
      logDir: logs,
    });
    stops.push(first.stop);
    const asPerson = (server: Server) => ({
      authorization: `Bearer ${server.gatewayToken}`,
      "content-type": "application/json",
    });

    // The person verifies an address with the code mailed to it.
    const added = await fetch(`${first.baseUrl}/api/people/me/emails`, {
      method: "POST",
      headers: asPerson(first),
      body: JSON.stringify({ address: ADDRESS }),
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const code = await until("the code's email", async () => {
      const mail = await mailIn(join(logs, "escalation-1.log"));
      return mail.map((text) => /Your code: (\d{6})/.exec(text)?.[1]).find(Boolean);
    });
    const verified = await fetch(`${first.baseUrl}/api/people/me/emails/verify`, {
      method: "POST",
      headers: asPerson(first),
      body: JSON.stringify({ address: ADDRESS, code }),
    });
    expect(verified.status, await verified.clone().text()).toBe(200);

    // A device subscribed to the person's inbox, on the stand-in push service.
    const keys = await subscriptionKeys();
    const subscribed = await fetch(`${first.baseUrl}/api/inbox/push-subscriptions`, {
      method: "POST",
      headers: asPerson(first),
      body: JSON.stringify({
        deviceId: "phone",
        subscription: { endpoint: `${service.origin}/push/phone`, expirationTime: null, keys: keys.json },
      }),
    });
    expect(subscribed.status, await subscribed.clone().text()).toBe(201);

    const created = await fetch(`${first.baseUrl}/api/sessions`, {
      method: "POST",
      headers: asPerson(first),
      body: JSON.stringify({
        agent: { kind: "external", name: "Claude Code" },
        deadlinePolicies: {
          default: {
            escalate: [
              { afterMs: 3_000, notify: ["push"], to: "me" },
              { afterMs: 15_000, notify: ["email"], to: "me" },
            ],
          },
        },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const session = (await created.json()) as { sessionId: string; agentToken: string; token: string };
    const opened = await fetch(`${first.baseUrl}/api/sessions/${session.sessionId}/interactions`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        kind: "approval",
        request: { toolName: "Bash", input: { command: "npm publish" } },
        cwd: "/home/dev/project",
        timeoutMs: 600_000,
      }),
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const { interactionId } = (await opened.json()) as { interactionId: string };
    const eventsOf = async (server: Server): Promise<Event[]> => {
      const response = await fetch(`${server.baseUrl}/api/sessions/${session.sessionId}/events`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      return ((await response.json()) as { events: Event[] }).events;
    };

    // First rung: a Still waiting push, after the one the card's opening sent.
    const reminder = await until("the first rung's push", async () => {
      const pushes = await Promise.all(
        service?.received.map(async (body) => (await decryptPush(body, keys)) as PushMessage) ?? [],
      );
      return pushes.find((push) => push.interactionId === interactionId && push.change === "reminder");
    });
    expect(reminder.title).toMatch(/^Still waiting: /);
    expect((await eventsOf(first)).filter((e) => e.type === "escalated")).toHaveLength(1);
    expect(await mailIn(join(logs, "escalation-1.log"))).toHaveLength(1);

    // The server stops and starts again on the same state and address.
    await first.stop();
    stops.pop();
    const port = Number(new URL(first.baseUrl).port);
    const second: Server = await startWranglerDev({
      label: "escalation-2",
      persistTo: state,
      port,
      vars,
      logDir: logs,
    });
    stops.push(second.stop);

    // Second rung: an email to the verified address with the card's link.
    const link = await until(
      "the second rung's email",
      async () => {
        const mail = await mailIn(join(logs, "escalation-2.log"));
        return mail.map((text) => /^Open the card: (\S+)$/m.exec(text)?.[1]).find(Boolean);
      },
      45_000,
    );
    expect(link.startsWith(`${second.baseUrl}/api/email/cards/`)).toBe(true);

    // Opening the link (as a mail scanner would, with a decision in its query) answers nothing.
    const shown = await fetch(`${link}?decision=approve`);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("Approve");
    expect((await eventsOf(second)).some((e) => e.type === "interaction_resolved")).toBe(false);

    const answered = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ decision: "approve" }),
    });
    expect(answered.status, await answered.clone().text()).toBe(200);
    expect(await answered.json()).toMatchObject({ ok: true, outcome: "approved", interactionId });
    const again = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ decision: "deny" }),
    });
    expect(again.status).not.toBe(200);

    const events = await until("the card's resolution", async () => {
      const all = await eventsOf(second);
      return all.some((e) => e.type === "interaction_resolved") ? all : undefined;
    });
    expect(events.filter((e) => e.type === "escalated").map((e) => e.data.notify)).toEqual([
      ["push"],
      ["email"],
    ]);
  });
});

// Escalation ladders: each rung of a card's deadline policy runs once at its time on the one alarm,
// as an `escalated` event on the card and in the person's inbox, across restarts; the ladder stops
// when the card resolves, the decision record names the rungs that ran, and the deadline still denies.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import type { EventData } from "../../../src/protocol/wire/events";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, inboxObject, Person } from "../inbox/inbox-fixtures";

const LADDER = [
  { afterMs: 120_000, notify: ["push", "chat"], to: "me" },
  { afterMs: 300_000, notify: ["push", "chat", "email"], to: "approvers" },
  { afterMs: 400_000, notify: ["email"], to: "me" },
];

type External = { sessionId: string; agentToken: string; token: string };

async function externalSession(person: Person, policies: unknown): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" }, deadlinePolicies: policies },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as External;
}

async function openApproval(person: Person, session: External, timeoutMs = 600_000) {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: {
      kind: "approval",
      timeoutMs,
      request: { toolName: "Bash", input: { command: "npm publish" }, risk: "execute" },
    },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  const prompt = (await events(person, session)).find(
    (event) =>
      event.type === "approval_required" &&
      (event.data as { interactionId?: string }).interactionId === interactionId,
  );
  if (!prompt) throw new Error(`no prompt event for ${interactionId}`);
  const { createdAt, expiresAt } = prompt.data as { createdAt: number; expiresAt: number };
  return { interactionId, createdAt, expiresAt };
}

async function events(person: Person, session: External) {
  const response = await person.api("GET", `/api/sessions/${session.sessionId}/events?after=0`, {
    token: session.token,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { events: Array<{ type: string; data: unknown }> }).events;
}

async function escalations(person: Person, session: External): Promise<Array<EventData<"escalated">>> {
  return (await events(person, session))
    .filter((event) => event.type === "escalated")
    .map((event) => event.data as EventData<"escalated">);
}

/** Moves the session's clock to `at` and runs its alarm, as the platform would then. */
async function alarmAt(session: External, at: number): Promise<void> {
  await advanceClock(stubOf(session), { at });
  await runDurableObjectAlarm(stubOf(session));
}

describe("an escalation ladder", () => {
  it("runs each rung once at its time, across a restart, and the inbox's card stands on the rung reached", async () => {
    const alice = new Person("alice.ladder@example.com");
    const session = await externalSession(alice, { kinds: { approval: { escalate: LADDER } } });
    const card = await openApproval(alice, session);
    const { createdAt } = card;
    await deliverOutbox(session);
    expect((await alice.inbox()).cards[0]?.deadlinePolicy).toMatchObject({ escalate: LADDER, escalated: 0 });

    // A second before the first rung, nothing.
    await alarmAt(session, createdAt + 119_000);
    expect(await escalations(alice, session)).toEqual([]);

    await alarmAt(session, createdAt + 120_000);
    await runDurableObjectAlarm(stubOf(session));
    expect(await escalations(alice, session)).toEqual([
      expect.objectContaining({ interactionId: card.interactionId, rung: 0, of: 3, ...LADDER[0] }),
    ]);
    await deliverOutbox(session);
    expect((await alice.inbox()).cards[0]?.deadlinePolicy).toMatchObject({ escalated: 1 });

    // The rung after it survives a restart of both objects.
    await evictDurableObject(stubOf(session));
    await evictDurableObject(inboxObject(alice.email));
    await alarmAt(session, createdAt + 300_000);
    const climbed = await escalations(alice, session);
    expect(climbed.map((rung) => rung.rung)).toEqual([0, 1]);
    expect(climbed[1]).toMatchObject(LADDER[1] as object);
    await deliverOutbox(session);
    expect((await alice.inbox()).cards[0]?.deadlinePolicy).toMatchObject({ escalated: 2 });
  });

  it("stops when the card resolves, and the decision record names the rungs that ran", async () => {
    const alice = new Person("alice.ladder.stops@example.com");
    const session = await externalSession(alice, { default: { escalate: LADDER } });
    const card = await openApproval(alice, session);
    const { createdAt } = card;
    await alarmAt(session, createdAt + 120_000);

    const answered = await alice.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: { interactionId: card.interactionId, response: { decision: "deny", reason: "Not today" } },
    });
    expect(answered.status).toBe(200);
    // Every later rung's time passes: none runs.
    await alarmAt(session, createdAt + 300_000);
    await alarmAt(session, createdAt + 400_000);
    expect((await escalations(alice, session)).map((rung) => rung.rung)).toEqual([0]);

    await deliverOutbox(session);
    const response = await alice.api("GET", `/api/decisions?session=${session.sessionId}`);
    const page = (await response.json()) as DecisionPage;
    expect(page.decisions).toEqual([
      expect.objectContaining({
        interactionId: card.interactionId,
        outcome: "denied",
        escalations: [{ ...LADDER[0], rung: 0, at: expect.any(Number) }],
      }),
    ]);
    // The rung ran at its time (the clock moves on by a millisecond or so as the alarm runs).
    const at = page.decisions[0]?.escalations?.[0]?.at ?? 0;
    expect(at - createdAt).toBeGreaterThanOrEqual(120_000);
    expect(at - createdAt).toBeLessThan(121_000);
  });

  it("never resolves a card to allow: at the deadline, rungs still due do not run and the card times out", async () => {
    const alice = new Person("alice.ladder.deadline@example.com");
    const session = await externalSession(alice, { default: { escalate: LADDER } });
    // The deadline comes before the second rung.
    const card = await openApproval(alice, session, 200_000);
    await alarmAt(session, card.createdAt + 120_000);
    await alarmAt(session, card.expiresAt);
    expect(await escalations(alice, session)).toEqual([expect.objectContaining({ rung: 0 })]);
    await alarmAt(session, card.createdAt + 300_000);
    expect(await escalations(alice, session)).toHaveLength(1);
    const state = await alice.api(
      "GET",
      `/api/sessions/${session.sessionId}/interactions/${card.interactionId}`,
      {
        token: session.token,
      },
    );
    // Resolved by its deadline, which denies: never approved.
    const view = JSON.stringify(await state.json());
    expect(view).toContain('"timed_out"');
    expect(view).not.toContain('"approved"');
  });

  it("refuses a ladder whose rungs do not climb, or that names a channel twice, and changes nothing", async () => {
    const alice = new Person("alice.ladder.refused@example.com");
    for (const escalate of [
      [
        { afterMs: 300_000, notify: ["push"], to: "me" },
        { afterMs: 120_000, notify: ["email"], to: "me" },
      ],
      [{ afterMs: 120_000, notify: ["push", "push"], to: "me" }],
      [{ afterMs: 120_000, notify: [], to: "me" }],
      [{ afterMs: 120_000, notify: ["fax"], to: "me" }],
      [{ afterMs: 120_000, notify: ["push"], to: "everyone" }],
    ]) {
      const response = await alice.api("POST", "/api/sessions", {
        body: {
          agent: { kind: "external", name: "Claude Code" },
          deadlinePolicies: { default: { escalate } },
        },
      });
      expect(response.status, JSON.stringify(escalate)).toBe(400);
      expect(await response.text()).toContain("escalate");
    }
    expect((await alice.inbox()).sessions).toEqual([]);
  });
});

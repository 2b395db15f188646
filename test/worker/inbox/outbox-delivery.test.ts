// Sessions report to their creator's inbox through an outbox: rows written with the event, sent by
// the session's alarm, applied once by (session, seq) — across evictions of either object, and
// without the session ever waiting for its inbox.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import { RETRY_DELAYS_MS } from "../../../src/notify/delivery-rows";
import type { DeliveryView, OutboxRow } from "../../../src/protocol";
import { InboxReport } from "../../../src/session/inbox-report/inbox-report";
import { SqlOutbox } from "../../../src/session/inbox-report/outbox";
import type { SessionObject } from "../../../src/session/session-object";
import type { SessionState } from "../../../src/session/session-state";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { textReply } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { ask, deliverOutbox, inboxObject, outboxSize, Person } from "./inbox-fixtures";

function stateOf(instance: SessionObject): SessionState {
  return inside(instance).state;
}

/** Takes the scheduled alarm away from the platform, so only the test decides when it runs. */
async function holdAlarm(session: { sessionId: string }): Promise<number | null> {
  return runInDurableObject<SessionObject, number | null>(stubOf(session), async (_, state) => {
    const at = await state.storage.getAlarm();
    await state.storage.deleteAlarm();
    return at;
  });
}

/** Gives a held alarm back, as the platform keeps it across an eviction. */
async function restoreAlarm(session: { sessionId: string }, at: number | null): Promise<void> {
  if (at === null) throw new Error("no alarm was held");
  await runInDurableObject<SessionObject, void>(stubOf(session), async (_, state) => {
    await state.storage.setAlarm(at);
  });
}

/** The session's one delivery log, as its owner reads it. */
async function deliveriesOf(person: Person, session: { sessionId: string; token: string }) {
  const response = await person.api("GET", `/api/sessions/${session.sessionId}/deliveries`, {
    token: session.token,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { deliveries: DeliveryView[] }).deliveries;
}

async function inboxEventCount(email: string): Promise<number> {
  return runInDurableObject<InboxObject, number>(inboxObject(email), (_, state) => {
    return state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM events`).toArray()[0]?.n ?? 0;
  });
}

describe("a session's outbox", () => {
  it("brings a new card to its creator's inbox, and takes it away once answered", async () => {
    const alice = new Person("alice.cards@example.com");
    const session = await alice.createSession({ script: [ask("toolu_db"), textReply("Postgres it is.")] });
    const device = await alice.connect(session);
    await device.request({ type: "send_message", text: "Set up the service" });
    await device.waitForEvent("question_prompt");
    await deliverOutbox(session);

    const waiting = await alice.inbox();
    expect(waiting.sessions).toEqual([
      expect.objectContaining({
        sessionId: session.sessionId,
        status: "awaiting_input",
        title: "Set up the service",
        agent: "Parley",
        openCards: 1,
      }),
    ]);
    expect(waiting.cards).toEqual([
      expect.objectContaining({ sessionId: session.sessionId, interactionId: "toolu_db", kind: "question" }),
    ]);

    await device.request({
      type: "submit_answers",
      toolCallId: "toolu_db",
      answers: { "Which database should the service use?": "Postgres" },
    });
    await device.waitForDone();
    await deliverOutbox(session);
    const answered = await alice.inbox();
    expect(answered.cards).toEqual([]);
    expect(answered.sessions[0]).toMatchObject({ status: "idle", openCards: 0 });
    device.close();
  });

  it("keeps each person's sessions in their own inbox", async () => {
    const alice = new Person("alice.two@example.com");
    const bob = new Person("bob.two@example.com");
    const first = await alice.createSession();
    const second = await alice.createSession();
    const third = await bob.createSession();
    await Promise.all([first, second, third].map(deliverOutbox));

    const ofAlice = await alice.inbox();
    const ofBob = await bob.inbox();
    expect(ofAlice.sessions.map((s) => s.sessionId).sort()).toEqual(
      [first.sessionId, second.sessionId].sort(),
    );
    expect(ofBob.sessions.map((s) => s.sessionId)).toEqual([third.sessionId]);
  });

  it("delivers what was written before the session was evicted, once", async () => {
    const alice = new Person("alice.evict@example.com");
    const session = await alice.createSession({ script: [ask("toolu_evicted")] });
    const device = await alice.connect(session);
    await holdAlarm(session);
    await device.request({ type: "send_message", text: "Ask me something" });
    await device.waitForEvent("question_prompt");
    const held = await holdAlarm(session);
    device.close();
    expect(await outboxSize(session)).toBeGreaterThan(0);

    await evictDurableObject(stubOf(session));
    await restoreAlarm(session, held);
    await deliverOutbox(session);
    // A second alarm (alarms are at least once) finds nothing to send.
    const eventsAfterDelivery = await inboxEventCount(alice.email);
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => instance.alarm());
    expect(await inboxEventCount(alice.email)).toBe(eventsAfterDelivery);

    const view = await alice.inbox();
    expect(view.cards.map((card) => card.interactionId)).toEqual(["toolu_evicted"]);
    expect(view.sessions[0]).toMatchObject({ status: "awaiting_input", openCards: 1 });
  });

  it("applies a batch its inbox already holds only once, even after the inbox was evicted", async () => {
    const alice = new Person("alice.repeat@example.com");
    const session = await alice.createSession({ script: [ask("toolu_repeat")] });
    const device = await alice.connect(session);
    await device.request({ type: "send_message", text: "Ask me" });
    await device.waitForEvent("question_prompt");
    device.close();
    // The rows as they were sent; the session deletes them once the inbox confirmed them.
    const rows = await runInDurableObject<SessionObject, OutboxRow[]>(stubOf(session), (instance) =>
      new SqlOutbox(stateOf(instance).sql, Date.now).oldest(100),
    );
    await deliverOutbox(session);
    const before = await alice.inbox();
    const events = await inboxEventCount(alice.email);

    await evictDurableObject(inboxObject(alice.email));
    const again = await inboxObject(alice.email).apply({ sessionId: session.sessionId, rows });
    expect(again.appliedThrough).toBe(rows[rows.length - 1]?.seq);
    expect(await inboxEventCount(alice.email)).toBe(events);
    expect(await alice.inbox()).toEqual(before);
  });

  it("refuses a batch whose stored entry is no outbox entry, naming the row, and applies none of it", async () => {
    const alice = new Person("alice.corrupt-row@example.com");
    const session = await alice.createSession({ script: [ask("toolu_corrupt")] });
    const device = await alice.connect(session);
    await device.request({ type: "send_message", text: "Ask me" });
    await device.waitForEvent("question_prompt");
    device.close();
    await deliverOutbox(session);
    const before = await alice.inbox();
    const events = await inboxEventCount(alice.email);

    // A good row ahead of the bad one: the batch is refused whole.
    const good = JSON.stringify({
      type: "card_resolved",
      interactionId: "toolu_corrupt",
      outcome: "cancelled",
      resolvedBy: null,
      resolvedAt: 1,
    });
    const refusals: string[] = [];
    for (const bad of ['{"type":"card_opened"}', "not json"]) {
      const batch = {
        sessionId: session.sessionId,
        rows: [
          { seq: 10_000, entry: good },
          { seq: 10_001, entry: bad },
        ],
      };
      refusals.push(
        await runInDurableObject<InboxObject, string>(inboxObject(alice.email), (instance) =>
          instance.apply(batch).then(
            () => "applied",
            (error: unknown) => JSON.stringify((error as { issues?: unknown }).issues ?? String(error)),
          ),
        ),
      );
    }
    expect(refusals[0]).toContain(`"path":["rows",1,"entry","card"]`);
    expect(refusals[1]).toContain(`"message":"entry is not JSON","path":["rows",1,"entry"]`);
    expect(await inboxEventCount(alice.email)).toBe(events);
    expect(await alice.inbox()).toEqual(before);
    expect(before.cards.map((card) => card.interactionId)).toEqual(["toolu_corrupt"]);
  });

  it("never makes the session wait for an unreachable inbox: the rows stay and arrive on a later alarm", async () => {
    const alice = new Person("alice.down@example.com");
    const session = await alice.createSession({ script: [ask("toolu_down"), textReply("Done.")] });
    const device = await alice.connect(session);
    await holdAlarm(session);
    await device.request({ type: "send_message", text: "Ask while the inbox is down" });
    await device.waitForEvent("question_prompt");
    await holdAlarm(session);

    // The session's side of the network: its inbox refuses (the peer, not the code under test, fails).
    const retry = await runInDurableObject<SessionObject, unknown>(stubOf(session), async (instance) => {
      const state = stateOf(instance);
      const down = new InboxReport(state, new SqlOutbox(state.sql, () => state.clock.now()), () => ({
        apply: () => Promise.reject(new Error("inbox unreachable")),
        forget: () => Promise.reject(new Error("inbox unreachable")),
      }));
      // Fired when the rows fall due (they wait a moment to be delivered together).
      const now = down.next();
      if (now === null) throw new Error("the outbox holds nothing due");
      await down.fire(now);
      return { now, next: down.next() };
    });
    const { next, now } = retry as { next: number; now: number };
    // The schedule's first retry, each waiting row's own, in the session's delivery log.
    expect(next).toBe(now + RETRY_DELAYS_MS[0]);
    const reports = (await deliveriesOf(alice, session)).filter((row) => row.channel === "inbox");
    expect(reports.length).toBeGreaterThan(0);
    for (const row of reports) {
      expect(row).toMatchObject({
        target: alice.email,
        status: "pending",
        attempts: 1,
        nextAt: next,
        lastError: "inbox unreachable",
      });
    }
    expect(await outboxSize(session)).toBeGreaterThan(0);

    // Meanwhile the session answers and finishes its turn as if nothing were wrong.
    await device.request({
      type: "submit_answers",
      toolCallId: "toolu_down",
      answers: { "Which database should the service use?": "SQLite" },
    });
    await device.waitForDone();
    device.close();

    // The retry time comes; the inbox is back and gets everything, opened then answered.
    await advanceClock(session, { at: next });
    await runDurableObjectAlarm(stubOf(session));
    await deliverOutbox(session);
    const view = await alice.inbox();
    expect(view.cards).toEqual([]);
    expect(view.sessions[0]).toMatchObject({ status: "idle" });
    const changes = await runInDurableObject<InboxObject, string[]>(inboxObject(alice.email), (_, state) =>
      state.storage.sql
        .exec<{ frame: string }>(`SELECT frame FROM events ORDER BY seq`)
        .toArray()
        .map((row) => (JSON.parse(row.frame) as { change: { type: string } }).change.type),
    );
    expect(changes.filter((type) => type !== "session_updated")).toEqual(["card_opened", "card_resolved"]);
  });

  it("takes a deleted session and its open cards out of the inbox", async () => {
    const alice = new Person("alice.deleted@example.com");
    const session = await alice.createSession({ script: [ask("toolu_deleted")] });
    const device = await alice.connect(session);
    await device.request({ type: "send_message", text: "Ask, then be deleted" });
    await device.waitForEvent("question_prompt");
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toHaveLength(1);
    const eventsBefore = await inboxEventCount(alice.email);

    const deleted = await alice.api("DELETE", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(deleted.status).toBe(200);
    // The removal is sent without waiting; the inbox's own log says when it arrived.
    for (let round = 0; round < 200 && (await inboxEventCount(alice.email)) === eventsBefore; round += 1) {
      await runInDurableObject<InboxObject, void>(inboxObject(alice.email), () => {});
    }
    const view = await alice.inbox();
    expect(view.sessions).toEqual([]);
    expect(view.cards).toEqual([]);
  });

  it("lists an external session under its agent's name and title", async () => {
    const alice = new Person("alice.external@example.com");
    const created = await alice.api("POST", "/api/sessions", {
      body: { agent: { kind: "external", name: "claude-code", title: "Refactor the billing module" } },
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as { sessionId: string; agentToken: string };
    // The agent opens a card through the external API; it waits in its person's inbox.
    const opened = await alice.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
      token: session.agentToken,
      body: {
        kind: "approval",
        request: { toolName: "Bash", input: { command: "rm -rf build" }, risk: "execute" },
        key: "toolu_external_1",
      },
    });
    expect(opened.status).toBe(201);
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toEqual([
      expect.objectContaining({ sessionId: session.sessionId, kind: "approval" }),
    ]);
    expect((await alice.inbox()).sessions).toEqual([
      expect.objectContaining({
        sessionId: session.sessionId,
        agent: "claude-code",
        title: "Refactor the billing module",
      }),
    ]);
  });
});

// Property suite: seeded random sequences of commands from two devices, evictions, and alarm
// deliveries (repeated, and early) against one session; after every step the stored session must
// keep its invariants.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import {
  api,
  type CreatedSession,
  connect,
  createSession,
  type Device,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

const SEED = Number(process.env.FC_SEED ?? 20261124);

const ask = {
  name: "AskUserQuestion",
  input: {
    questions: [
      {
        question: "Which way?",
        header: "Way",
        multiSelect: false,
        options: [
          { label: "Left", description: "go left" },
          { label: "Right", description: "go right" },
        ],
      },
    ],
  },
};

/** Replies that pause for approvals and questions, run tools, and end turns, over and over. */
function script() {
  const cycle = [
    toolReply([{ name: "notes_write", input: { key: "k", text: "v" } }]),
    textReply("Noted."),
    toolReply([ask, { name: "current_time", input: {} }]),
    textReply("Thanks."),
    toolReply([
      { name: "notes_write", input: { key: "a", text: "1" } },
      { name: "notes_write", input: { key: "b", text: "2" } },
    ]),
    textReply("Both written."),
  ];
  return Array.from({ length: 40 }, () => cycle).flat();
}

type Step =
  | { type: "send" }
  | { type: "approve" | "deny"; device: 0 | 1 }
  | { type: "answer"; device: 0 | 1 }
  | { type: "race" }
  | { type: "cancel" }
  | { type: "retry_now" }
  | { type: "evict" }
  | { type: "alarm_twice" }
  | { type: "early_alarm" }
  | { type: "deadlines_pass" };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant({ type: "send" as const }), weight: 3 },
  {
    arbitrary: fc.record({
      type: fc.constantFrom("approve" as const, "deny" as const),
      device: fc.constantFrom(0 as const, 1 as const),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("answer" as const),
      device: fc.constantFrom(0 as const, 1 as const),
    }),
    weight: 2,
  },
  fc.constant({ type: "race" as const }),
  fc.constant({ type: "cancel" as const }),
  fc.constant({ type: "retry_now" as const }),
  fc.constant({ type: "evict" as const }),
  fc.constant({ type: "alarm_twice" as const }),
  fc.constant({ type: "early_alarm" as const }),
  fc.constant({ type: "deadlines_pass" as const }),
);

interface Pending {
  toolCallId: string;
  kind: string;
}

async function pendingOf(session: CreatedSession): Promise<Pending[]> {
  const response = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
  return ((await response.json()) as { pending: Pending[] }).pending;
}

function command(step: Step, pending: Pending[]): Record<string, unknown> | null {
  const approval = pending.find((p) => p.kind === "approval");
  const question = pending.find((p) => p.kind === "question");
  switch (step.type) {
    case "send":
      return { type: "send_message", text: "next" };
    case "approve":
      return approval ? { type: "approve", toolCallId: approval.toolCallId } : null;
    case "deny":
      return approval ? { type: "deny", toolCallId: approval.toolCallId, reason: "no" } : null;
    case "answer":
      return question
        ? { type: "submit_answers", toolCallId: question.toolCallId, answers: { "Which way?": "Left" } }
        : null;
    case "cancel":
      return { type: "cancel" };
    case "retry_now":
      return { type: "retry_now" };
    default:
      return null;
  }
}

/**
 * Lets the session finish what it can do alone (model calls and tools are instant here): while it
 * runs, each next step reaches the watching device as an event. A session still running after
 * `limit` events, or silent for the device's timeout, fails the run instead of being checked mid-step.
 */
async function settle(session: CreatedSession, watcher: Device, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    // Counted before asking, so an event that lands between the answer and the wait still counts.
    const seen = watcher.events.length;
    const response = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    const { status } = (await response.json()) as { status: string };
    if (status !== "running") return;
    await watcher.until(() => watcher.events.length > seen, "the running session's next event");
  }
  throw new Error(`the session was still running after ${limit} events`);
}

interface Stored {
  seqs: number[];
  resolvedIds: string[];
  pendingDeadlines: Array<number | null>;
  alarm: number | null;
  status: string;
  turn: boolean;
  messages: Array<{ role: string; content: Array<{ type: string; id?: string; tool_use_id?: string }> }>;
}

async function stored(session: CreatedSession): Promise<Stored> {
  return runInDurableObject<SessionObject, Stored>(stubOf(session), async (_instance, state) => {
    const sql = state.storage.sql;
    const rows = <T>(query: string) => sql.exec(query).toArray() as T[];
    const meta = (key: string) =>
      rows<{ value: string }>(`SELECT value FROM meta WHERE key = '${key}'`)[0]?.value;
    return {
      seqs: rows<{ seq: number }>(`SELECT seq FROM events ORDER BY seq`).map((r) => r.seq),
      resolvedIds: rows<{ frame: string }>(
        `SELECT frame FROM events WHERE type = 'interaction_resolved'`,
      ).map((r) => JSON.parse(r.frame).data.toolCallId),
      pendingDeadlines: rows<{ deadline: number | null }>(
        `SELECT deadline FROM interactions WHERE status = 'pending'`,
      ).map((r) => r.deadline),
      alarm: await state.storage.getAlarm(),
      status: JSON.parse(meta("status") ?? '"idle"'),
      turn: meta("turn") !== undefined,
      messages: rows<{ role: string; content: string }>(`SELECT role, content FROM messages ORDER BY id`).map(
        (r) => ({
          role: r.role,
          content: JSON.parse(r.content),
        }),
      ),
    };
  });
}

function expectInvariants(s: Stored, history: string): void {
  // Contiguous seqs.
  expect(s.seqs, history).toEqual(s.seqs.map((_, i) => i + 1));
  // At most one resolution per card.
  expect(new Set(s.resolvedIds).size, history).toBe(s.resolvedIds.length);
  // Nothing pending without a deadline, and the alarm no later than the earliest one.
  for (const deadline of s.pendingDeadlines) {
    expect(typeof deadline, history).toBe("number");
    expect(s.alarm, history).not.toBeNull();
    expect(s.alarm ?? Number.POSITIVE_INFINITY, history).toBeLessThanOrEqual(deadline ?? 0);
  }
  if (s.status === "running") expect(s.alarm, history).not.toBeNull();
  // A transcript the Messages API accepts, with one result per tool_use.
  const seenResults = new Set<string>();
  s.messages.forEach((message, i) => {
    expect(message.content.length, history).toBeGreaterThan(0);
    expect(message.role, history).toBe(i % 2 === 0 ? "user" : "assistant");
    const results = message.content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id ?? "");
    for (const id of results) {
      expect(seenResults.has(id), `${history}: two results for ${id}`).toBe(false);
      seenResults.add(id);
    }
    const previous = s.messages[i - 1];
    const uses =
      previous?.role === "assistant"
        ? previous.content.filter((b) => b.type === "tool_use").map((b) => b.id)
        : [];
    expect(results, history).toEqual(message.role === "user" ? uses : []);
    expect(
      message.content.slice(0, results.length).every((b) => b.type === "tool_result"),
      history,
    ).toBe(true);
  });
  const last = s.messages.at(-1);
  // Only a turn in progress may leave the last tool calls unanswered.
  if (last?.role === "assistant" && last.content.some((b) => b.type === "tool_use"))
    expect(s.turn, history).toBe(true);
}

async function deliver(session: CreatedSession): Promise<void> {
  await runDurableObjectAlarm(stubOf(session));
}

describe("session invariants under random commands, evictions and alarms", () => {
  it("hold after every step of every seeded run", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 12 }), async (steps) => {
        const session = await createSession({ script: script() });
        let devices: Device[] = [
          await connect(session, { device: "a" }),
          await connect(session, { device: "b" }),
        ];
        const history: string[] = [];
        try {
          for (const s of steps) {
            history.push(s.type);
            const pending = await pendingOf(session);
            if (s.type === "evict") {
              await evictDurableObject(stubOf(session), { webSockets: "close" });
              devices = [await connect(session, { device: "a" }), await connect(session, { device: "b" })];
            } else if (s.type === "alarm_twice") {
              await deliver(session);
              await deliver(session);
            } else if (s.type === "early_alarm") {
              await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => instance.alarm());
            } else if (s.type === "deadlines_pass") {
              await runInDurableObject<SessionObject, void>(stubOf(session), (_i, state) => {
                state.storage.sql.exec(
                  `UPDATE interactions SET deadline = ? WHERE status = 'pending'`,
                  Date.now() - 1,
                );
              });
              await deliver(session);
            } else if (s.type === "race") {
              const approval = pending.find((p) => p.kind === "approval");
              if (approval) {
                const acks = await Promise.all([
                  devices[0]?.request({ type: "approve", toolCallId: approval.toolCallId }),
                  devices[1]?.request({ type: "deny", toolCallId: approval.toolCallId }),
                ]);
                expect(acks.filter((ack) => ack?.ok)).toHaveLength(1);
              }
            } else {
              const frame = command(s, pending);
              const device = devices["device" in s ? s.device : 0];
              if (frame && device) await device.request(frame);
            }
            const watcher = devices[0];
            if (!watcher) throw new Error("no device watches the session");
            await settle(session, watcher);
            expectInvariants(await stored(session), history.join(" → "));
          }
        } finally {
          for (const device of devices) device.close();
        }
      }),
      { seed: SEED, numRuns: 15, endOnFailure: true },
    );
  }, 240_000);
});

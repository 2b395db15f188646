// Every SQL statement costs the wake CPU far more than the rows it touches (locally about 40 µs,
// whatever it does), so an answer cycle is held to a statement budget: the stores keep what they
// read and bring it up to date with their own writes instead of reading it again.
import { describe, expect, it } from "vitest";
import type { SessionStats } from "../../../src/objects/contracts/session";
import { textReply } from "../../helpers/session-harness";
import { ask, deliverOutbox, Person } from "./inbox-fixtures";

/**
 * Statements of an answer → next card cycle in its session, inbox report included (24 when this
 * was written; 40 before stores took their own writes into what they keep).
 */
const CYCLE_BUDGET = 27;

describe("an answer cycle's SQL statements", () => {
  it("stay within the budget: answer, tool result, next model call, next card", async () => {
    const person = new Person("cycle.statements@example.com");
    const session = await person.createSession({
      script: [ask("toolu_0"), ask("toolu_1"), ask("toolu_2"), ask("toolu_3"), textReply("Done.")],
    });
    const stats = async () => {
      const response = await person.api("GET", `/api/sessions/${session.sessionId}/stats`, {
        token: session.token,
      });
      return ((await response.json()) as SessionStats).statements;
    };
    const device = await person.connect(session);
    const answer = async (toolCallId: string, next: string) => {
      await device.request({
        type: "submit_answers",
        toolCallId,
        answers: { "Which database should the service use?": "Postgres" },
      });
      await device.waitForEvent("question_prompt", (event) => event.data.toolCallId === next);
      await device.waitForEvent(
        "session_status",
        (event) => event.data.status === "awaiting_input" && event.seq > (device.events.at(-2)?.seq ?? 0),
      );
    };

    await device.request({ type: "send_message", text: "Set up the service" });
    await device.waitForEvent("question_prompt");
    await deliverOutbox(session);
    await deliverOutbox(session);
    // A cycle warms what an instance keeps for good (settings, the person's devices); delivering
    // the outbox from the test drops what the stores keep, so one more cycle follows it.
    await answer("toolu_0", "toolu_1");
    await answer("toolu_1", "toolu_2");
    const before = await stats();
    const ownCost = (await stats()) - before;
    const start = await stats();
    await answer("toolu_2", "toolu_3");
    const cycle = (await stats()) - start - ownCost;
    expect(cycle).toBeGreaterThan(10);
    expect(cycle).toBeLessThanOrEqual(CYCLE_BUDGET);
  });
});

// A session's reports to its person's inbox are delivery rows of the one shape: listed in the
// session's one delivery log with their status and attempts, kept there once the inbox has them
// (without the entry they carried), and leased while they are sent.
import { describe, expect, it } from "vitest";
import type { DeliveryView } from "../../../src/protocol";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { textReply } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { ask, deliverOutbox, Person } from "./inbox-fixtures";

async function deliveriesOf(person: Person, session: { sessionId: string; token: string }) {
  const response = await person.api("GET", `/api/sessions/${session.sessionId}/deliveries`, {
    token: session.token,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { deliveries: DeliveryView[] }).deliveries;
}

describe("a session's delivery log", () => {
  it("lists its reports to the inbox: pending until the inbox has them, then delivered after one attempt", async () => {
    const alice = new Person("alice.report-log@example.com");
    const session = await alice.createSession({ script: [ask("toolu_logged"), textReply("Postgres.")] });
    const device = await alice.connect(session);
    await device.request({ type: "send_message", text: "Set up the service" });
    await device.waitForEvent("question_prompt");
    const opened = (await deliveriesOf(alice, session)).find((row) => row.change === "opened");
    // The platform may have run the due alarm already: then it is delivered.
    expect(opened).toMatchObject({
      channel: "inbox",
      target: alice.email,
      interactionId: "toolu_logged",
      status: expect.stringMatching(/^(pending|delivered)$/),
    });

    await deliverOutbox(session);
    const log = await deliveriesOf(alice, session);
    const reports = log.filter((row) => row.channel === "inbox");
    expect(reports.map((row) => row.change)).toContain("summary");
    for (const row of reports) {
      expect(row).toMatchObject({
        target: alice.email,
        status: "delivered",
        attempts: 1,
        nextAt: null,
        lastError: null,
      });
    }
    expect(reports.find((row) => row.change === "opened")).toMatchObject({ interactionId: "toolu_logged" });
    // Newest first, as every delivery log.
    expect(log.map((row) => row.createdAt)).toEqual(log.map((row) => row.createdAt).sort((a, b) => b - a));

    // What the inbox holds is not kept twice: a delivered row keeps no entry.
    const entries = await runInDurableObject<SessionObject, string[]>(stubOf(session), (_, state) =>
      state.storage.sql
        .exec<{ entry: string }>(`SELECT entry FROM outbox WHERE status = 'delivered'`)
        .toArray()
        .map((row) => row.entry),
    );
    expect(entries.length).toBe(reports.length);
    expect(new Set(entries)).toEqual(new Set([""]));
    device.close();
  });
});

// The inbox's one delivery log: its emails are delivery rows of the one shape, listed beside its
// pushes and chat messages, and the emails an inbox stored before keep their outcome on upgrade.
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import { MIGRATIONS } from "../../../src/inbox/inbox-schema";
import type { DeliveryView } from "../../../src/protocol";
import { runInDurableObject } from "../../helpers/run-in-object";
import { inboxObject, Person } from "./inbox-fixtures";

async function log(person: Person): Promise<DeliveryView[]> {
  const response = await person.api("GET", "/api/inbox/deliveries");
  expect(response.status).toBe(200);
  return ((await response.json()) as { deliveries: DeliveryView[] }).deliveries;
}

describe("the inbox's delivery log", () => {
  it("lists an email as a row of the one log: pending until it is sent, then delivered", async () => {
    const ana = new Person("ana.delivery-log@example.com");
    const added = await ana.api("POST", "/api/people/me/emails", { body: { address: "ana@log.example" } });
    expect(added.status, await added.clone().text()).toBe(201);
    const waiting = await log(ana);
    // It may already be sent, or taken: an attempt counts once the row is leased.
    expect(waiting).toEqual([
      expect.objectContaining({
        channel: "email",
        target: "ana@log.example",
        change: "verification",
        interactionId: null,
      }),
    ]);

    // Sent once the step that stored it is done, not on the alarm.
    await expect
      .poll(() => log(ana))
      .toEqual([
        expect.objectContaining({
          channel: "email",
          target: "ana@log.example",
          status: "delivered",
          attempts: 1,
          nextAt: null,
          lastError: null,
        }),
      ]);
  });

  it("keeps the emails stored before the upgrade, sent ones as delivered and a waiting one still due", async () => {
    const ben = new Person("ben.delivery-upgrade@example.com");
    expect((await ben.api("GET", "/api/inbox/deliveries")).status).toBe(200);
    const rows = await runInDurableObject<InboxObject, unknown[]>(inboxObject(ben.email), (_, state) => {
      const sql = state.storage.sql;
      // The email outbox as it was stored before its rows took the one shape.
      sql.exec(`DROP TABLE email_outbox`);
      sql.exec(`CREATE TABLE email_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT NOT NULL, subject TEXT NOT NULL, text TEXT, link TEXT,
        purpose TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER,
        created_at INTEGER NOT NULL, error TEXT)`);
      sql.exec(`CREATE INDEX email_outbox_due ON email_outbox (next_at) WHERE next_at IS NOT NULL`);
      sql.exec(
        `INSERT INTO email_outbox (address, subject, text, link, purpose, status, attempts, next_at, created_at, error)
         VALUES ('ben@log.example', 'Code', NULL, NULL, 'verification', 'sent', 1, NULL, 10, NULL),
                ('ben@log.example', 'Still waiting', 'Open it', ?, 'escalation', 'pending', 1, 40, 20, 'busy')`,
        JSON.stringify({
          sessionId: "s",
          interactionId: "toolu_waiting",
          person: ben.email,
          expiresAt: 99,
          origin: "o",
        }),
      );
      // The one migration that gives them the shape, run as an older inbox runs it when it wakes.
      const upgrade = MIGRATIONS.find((statements) =>
        statements.some((s) => s.includes("error TO last_error")),
      );
      for (const statement of upgrade ?? []) sql.exec(statement);
      return sql
        .exec(
          `SELECT status, attempts, next_at, last_error, interaction_id, updated_at, text FROM email_outbox ORDER BY id`,
        )
        .toArray();
    });
    expect(rows).toEqual([
      {
        status: "delivered",
        attempts: 1,
        next_at: null,
        last_error: null,
        interaction_id: null,
        updated_at: 10,
        text: null,
      },
      {
        status: "pending",
        attempts: 1,
        next_at: 40,
        last_error: "busy",
        interaction_id: "toolu_waiting",
        updated_at: 20,
        text: "Open it",
      },
    ]);
  });
});

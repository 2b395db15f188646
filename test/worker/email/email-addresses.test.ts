// A person's email addresses: a code is sent through the send_email binding, kept only as a hash,
// answers once, for five tries, and at most three codes an hour are sent; bad input and wrong codes
// change nothing.
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { inboxObject, Person } from "../inbox/inbox-fixtures";
import { emailsTo, nextEmailTo, SENT_WITHIN } from "./sent-emails";

type Outbox = { address: string; subject: string; text: string | null; status: string; purpose: string };

async function outbox(person: Person): Promise<Outbox[]> {
  return runInDurableObject<InboxObject, Outbox[]>(inboxObject(person.email), (_, state) =>
    state.storage.sql
      .exec<Outbox>(`SELECT address, subject, text, status, purpose FROM email_outbox ORDER BY id`)
      .toArray(),
  );
}

/** The code in the email the binding was handed for `address` after `before` others. */
async function codeSent(address: string, before = 0): Promise<string> {
  const { text } = await nextEmailTo(address, before);
  const code = /Your code: (\d{6})/.exec(text)?.[1];
  if (!code) throw new Error(`no code in ${text}`);
  return code;
}

describe("a person's email addresses", () => {
  it("are verified by the code sent there, once; the code is kept only as a hash and the sent email's text is not kept", async () => {
    const ana = new Person("ana.email@example.com");
    const address = "ana.addresses@mail.example";
    const added = await ana.api("POST", "/api/people/me/emails", {
      body: { address: "Ana.Addresses@Mail.Example" },
    });
    expect(added.status, await added.clone().text()).toBe(201);
    expect(await added.json()).toMatchObject({ addresses: [{ address, verified: false }] });
    const code = await codeSent(address);
    expect(await emailsTo(address)).toEqual([
      {
        from: { email: "parley@parley.test", name: "Parley" },
        to: address,
        subject: "Your Parley code",
        text: expect.stringContaining(`Your code: ${code}`),
      },
    ]);
    const stored = await runInDurableObject<InboxObject, string>(inboxObject(ana.email), (_, state) =>
      JSON.stringify(state.storage.sql.exec(`SELECT * FROM emails`).toArray()),
    );
    expect(stored).not.toContain(code);

    // Handed to the binding, the email keeps no text (with its code).
    await expect
      .poll(() => outbox(ana), SENT_WITHIN)
      .toEqual([
        expect.objectContaining({ address, status: "delivered", text: null, purpose: "verification" }),
      ]);

    const wrong = await ana.api("POST", "/api/people/me/emails/verify", {
      body: { address, code: code === "000000" ? "000001" : "000000" },
    });
    expect(wrong.status).toBe(403);
    const right = await ana.api("POST", "/api/people/me/emails/verify", {
      body: { address, code },
    });
    expect(right.status, await right.clone().text()).toBe(200);
    expect(await right.json()).toMatchObject({ addresses: [{ address, verified: true }] });
    // Used once: the same code again finds none.
    const again = await ana.api("POST", "/api/people/me/emails/verify", {
      body: { address, code },
    });
    expect(again.status).toBe(403);
  });

  it("refuse a code after five wrong tries, and a fourth code within the hour, changing nothing", async () => {
    const ben = new Person("ben.email@example.com");
    await ben.api("POST", "/api/people/me/emails", { body: { address: "ben.addresses@mail.example" } });
    const code = await codeSent("ben.addresses@mail.example");
    const wrongCode = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 5; i += 1) {
      const wrong = await ben.api("POST", "/api/people/me/emails/verify", {
        body: { address: "ben.addresses@mail.example", code: wrongCode },
      });
      expect(wrong.status).toBe(403);
    }
    // The right code now finds none: guessing needs a new code every five tries.
    const late = await ben.api("POST", "/api/people/me/emails/verify", {
      body: { address: "ben.addresses@mail.example", code },
    });
    expect(late.status).toBe(403);

    expect(
      (await ben.api("POST", "/api/people/me/emails", { body: { address: "ben.addresses@mail.example" } }))
        .status,
    ).toBe(201);
    expect(
      (await ben.api("POST", "/api/people/me/emails", { body: { address: "ben.addresses@mail.example" } }))
        .status,
    ).toBe(201);
    const fourth = await ben.api("POST", "/api/people/me/emails", {
      body: { address: "ben.addresses@mail.example" },
    });
    expect(fourth.status).toBe(429);
    expect(await outbox(ben)).toHaveLength(3);

    for (const body of [
      { address: "not an address" },
      { address: "ben.addresses@mail.example", extra: 1 },
      {},
    ]) {
      const refused = await ben.api("POST", "/api/people/me/emails", { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const badCode = await ben.api("POST", "/api/people/me/emails/verify", {
      body: { address: "ben.addresses@mail.example", code: "12ab56" },
    });
    expect(badCode.status).toBe(400);
    expect(await outbox(ben)).toHaveLength(3);
    const listed = await ben.api("GET", "/api/people/me/emails");
    expect(await listed.json()).toMatchObject({
      addresses: [{ address: "ben.addresses@mail.example", verified: false }],
    });
  });
});

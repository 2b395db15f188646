// What one credential can take of a person's inbox connections: each inbox link, the links
// together and the person's own have a cap, a ticket is spent only once the caps admit the
// connection, and tickets have a quota per credential.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import { INSIDE } from "../../../src/object-shell";
import { ReplayBudget } from "../../../src/objects/replay-budget";
import type { ConnectionTicketResponse, MintedInboxLink } from "../../../src/protocol";
import {
  MAX_CONNECTIONS_PER_LINK,
  MAX_INBOX_CONNECTIONS_PER_PERSON,
  MAX_LIVE_TICKETS_PER_CREDENTIAL,
} from "../../../src/protocol/limits";
import { runInDurableObject } from "../../helpers/run-in-object";
import { ORIGIN, textReply } from "../../helpers/session-harness";
import { ask, deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

const opened: WebSocket[] = [];

function upgrade(headers: Record<string, string>, query = ""): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/inbox/ws${query}`, {
    headers: { upgrade: "websocket", ...headers },
  });
}

/** Accepts an opened inbox socket and waits for its hello; it stays open until `closeAll`. */
async function accepted(response: Response): Promise<WebSocket> {
  const socket = response.webSocket;
  if (!socket) throw new Error(`no websocket: ${response.status} ${await response.text()}`);
  const hello = new Promise((resolve) => socket.addEventListener("message", resolve, { once: true }));
  socket.accept();
  await hello;
  opened.push(socket);
  return socket;
}

function closeAll(): void {
  for (const socket of opened.splice(0)) socket.close();
}

async function refusedWith(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await response.json()).toMatchObject({ error: { code } });
}

async function mint(person: Person): Promise<MintedInboxLink> {
  const minted = await person.api("POST", "/api/inbox/links", { body: { role: "view" } });
  expect(minted.status).toBe(201);
  return (await minted.json()) as MintedInboxLink;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function ticketOf(headers: Record<string, string>): Promise<string> {
  const asked = await exports.default.fetch(`${ORIGIN}/api/inbox/ws-ticket`, { method: "POST", headers });
  expect(asked.status).toBe(201);
  return ((await asked.json()) as ConnectionTicketResponse).ticket;
}

/** The person's own socket: Access names them, and a ticket (which the Access cookie alone is not) admits it. */
async function personUpgrade(headers: Record<string, string>): Promise<Response> {
  return upgrade(headers, `?ticket=${await ticketOf(headers)}`);
}

async function forgetSpentTickets(email: string): Promise<void> {
  await runInDurableObject(inboxObject(email), (instance: InboxObject, state) => {
    state.storage.sql.exec(`DELETE FROM meta WHERE key = 'spent_tickets'`);
    instance[INSIDE]().forgetCopies();
  });
}

describe("inbox connections", () => {
  it(`are capped at ${MAX_CONNECTIONS_PER_LINK} per inbox link, without holding back another link or the person`, async () => {
    const ana = new Person("ana.caps@example.com");
    const link = await mint(ana);
    for (let i = 0; i < MAX_CONNECTIONS_PER_LINK; i += 1) await accepted(await upgrade(bearer(link.token)));
    await refusedWith(await upgrade(bearer(link.token)), 429, "too_many_sockets");
    const other = await mint(ana);
    await accepted(await upgrade(bearer(other.token)));
    await accepted(await personUpgrade(await ana.headers()));
    closeAll();
  });

  it(`are capped at ${MAX_INBOX_CONNECTIONS_PER_PERSON} of the person's own, while an inbox link still connects`, async () => {
    const ben = new Person("ben.caps@example.com");
    const headers = await ben.headers();
    for (let i = 0; i < MAX_INBOX_CONNECTIONS_PER_PERSON; i += 1) {
      // Each socket takes a ticket, and a credential has a quota of them per ticket life: this
      // test forgets the spent ones rather than wait out their 30 seconds.
      if (i % MAX_LIVE_TICKETS_PER_CREDENTIAL === 0) await forgetSpentTickets(ben.email);
      await accepted(await personUpgrade(headers));
    }
    await forgetSpentTickets(ben.email);
    await refusedWith(await personUpgrade(headers), 429, "too_many_sockets");
    const link = await mint(ben);
    await accepted(await upgrade(bearer(link.token)));
    closeAll();
  });

  it("spend a ticket only once the link's cap admits the connection", async () => {
    const cleo = new Person("cleo.caps@example.com");
    const link = await mint(cleo);
    for (let i = 0; i < MAX_CONNECTIONS_PER_LINK; i += 1) await accepted(await upgrade(bearer(link.token)));
    const ticket = await ticketOf(bearer(link.token));
    await refusedWith(await upgrade({}, `?ticket=${ticket}`), 429, "too_many_sockets");
    opened.pop()?.close();
    await expect
      .poll(async () => {
        const retry = await upgrade({}, `?ticket=${ticket}`);
        if (retry.status === 101) await accepted(retry);
        else await retry.body?.cancel();
        return retry.status;
      })
      .toBe(101);
    closeAll();
  });

  it(`take at most ${MAX_LIVE_TICKETS_PER_CREDENTIAL} live tickets from one inbox link, while the person's still open`, async () => {
    const dev = new Person("dev.caps@example.com");
    const link = await mint(dev);
    for (let i = 0; i < MAX_LIVE_TICKETS_PER_CREDENTIAL; i += 1) {
      const socket = await accepted(await upgrade({}, `?ticket=${await ticketOf(bearer(link.token))}`));
      opened.splice(opened.indexOf(socket), 1);
      socket.close();
    }
    await refusedWith(
      await upgrade({}, `?ticket=${await ticketOf(bearer(link.token))}`),
      429,
      "rate_limited",
    );
    const headers = await dev.headers();
    await accepted(await upgrade(headers, `?ticket=${await ticketOf(headers)}`));
    closeAll();
  });
});

describe("inbox replays", () => {
  it("count against the credential's replay budget, which reconnecting does not refill", async () => {
    const eve = new Person("eve.replay@example.com");
    const session = await eve.createSession({ script: [ask("toolu_replay"), textReply("Thanks.")] });
    const device = await eve.connect(session);
    await device.request({ type: "send_message", text: "A job" });
    await device.waitForEvent("question_prompt");
    await deliverOutbox(session);
    device.close();
    // The real budget is 32 MiB a minute; this inbox's history is small, so the object gets a
    // budget of about one replay of it.
    await runInDurableObject(inboxObject(eve.email), (instance: InboxObject) => {
      (instance as unknown as { replayBudget: ReplayBudget }).replayBudget = new ReplayBudget(
        () => Date.now(),
        1,
      );
    });
    const headers = await eve.headers();
    (await accepted(await personUpgrade(headers))).close();
    opened.length = 0;
    await refusedWith(await personUpgrade(headers), 429, "rate_limited");
    // An inbox link has its own allowance.
    const link = await mint(eve);
    await accepted(await upgrade(bearer(link.token)));
    closeAll();
  });
});

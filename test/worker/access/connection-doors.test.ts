// What one credential can take of a session's connections: tickets have a quota per credential,
// a ticket is spent only once nothing else refuses the connection, and the replay budget is kept
// per credential, so reconnecting does not refill it.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ReplayBudget } from "../../../src/objects/replay-budget";
import { MAX_CONNECTIONS_PER_LINK, MAX_LIVE_TICKETS_PER_CREDENTIAL } from "../../../src/protocol/limits";
import type { ConnectionTicketResponse } from "../../../src/protocol/wire/http";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, Device, ORIGIN, textReply } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { expectError, mintLink } from "./access-fixtures";

async function ticketFor(sessionId: string, token: string): Promise<string> {
  const response = await api("POST", `/api/sessions/${sessionId}/ws-ticket`, { token });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as ConnectionTicketResponse).ticket;
}

function upgrade(sessionId: string, ticket: string): Promise<Response> {
  return exports.default.fetch(
    `${ORIGIN}/api/sessions/${sessionId}/ws?ticket=${encodeURIComponent(ticket)}`,
    {
      headers: { upgrade: "websocket" },
    },
  );
}

/** Opens the socket a ticket admits, waits for its hello, and closes it. */
async function openAndClose(sessionId: string, ticket: string): Promise<void> {
  const response = await upgrade(sessionId, ticket);
  expect(response.status, response.status === 101 ? "" : await response.text()).toBe(101);
  const socket = response.webSocket as WebSocket;
  socket.accept();
  const device = new Device(socket);
  await device.until(() => device.hello, "hello");
  device.close();
}

describe("connection tickets per credential", () => {
  it(`lets one view link spend at most ${MAX_LIVE_TICKETS_PER_CREDENTIAL} in their life, while the owner's still open`, async () => {
    const session = await createSession();
    const view = await mintLink(session, { role: "view" });
    for (let i = 0; i < MAX_LIVE_TICKETS_PER_CREDENTIAL; i += 1) {
      await openAndClose(session.sessionId, await ticketFor(session.sessionId, view.token));
    }
    const refused = await upgrade(session.sessionId, await ticketFor(session.sessionId, view.token));
    await expectError(refused, 429, "rate_limited");
    // The link spent its own room, not the session's: the owner and another link still connect.
    await openAndClose(session.sessionId, await ticketFor(session.sessionId, session.token));
    const other = await mintLink(session, { role: "view" });
    await openAndClose(session.sessionId, await ticketFor(session.sessionId, other.token));
  });

  it("are not spent by a connection the link's cap refuses, so the same ticket opens once there is room", async () => {
    const session = await createSession();
    const view = await mintLink(session, { role: "view" });
    const sockets: Device[] = [];
    for (let i = 0; i < MAX_CONNECTIONS_PER_LINK; i += 1)
      sockets.push(await connect(session, { token: view.token }));
    const ticket = await ticketFor(session.sessionId, view.token);
    await expectError(await upgrade(session.sessionId, ticket), 429, "too_many_sockets");
    sockets.pop()?.close();
    await expect
      .poll(async () => {
        const retry = await upgrade(session.sessionId, ticket);
        if (retry.status === 101) {
          const socket = retry.webSocket as WebSocket;
          socket.accept();
          sockets.push(new Device(socket));
        } else await retry.body?.cancel();
        return retry.status;
      })
      .toBe(101);
    for (const socket of sockets) socket.close();
  });
});

describe("replayed history per credential", () => {
  it("is not refilled by reconnecting: once the token's budget is spent, a new connection is refused, another link's is not", async () => {
    const session = await createSession({ script: [textReply("A reply worth replaying. ".repeat(40))] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello" });
    await device.waitForDone();
    device.close();
    const view = await mintLink(session, { role: "view" });
    // The real budget is 32 MiB a minute; this history is small, so the object gets a budget of a
    // few replays of it, on a clock the test moves.
    const clock = { now: Date.now() };
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => {
      (instance as unknown as { replayBudget: ReplayBudget }).replayBudget = new ReplayBudget(
        () => clock.now,
        3_000,
      );
    });
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const reconnected = await connect(session, { after: 0 }).then(
        (socket) => {
          socket.close();
          return "open";
        },
        (error: Error) => (/429.*rate_limited/.test(error.message) ? "rate_limited" : error.message),
      );
      outcomes.push(reconnected);
    }
    expect(outcomes[0]).toBe("open");
    expect(outcomes.at(-1)).toBe("rate_limited");
    // Another credential has its own allowance.
    const viewer = await connect(session, { token: view.token, after: 0 });
    await viewer.until(() => viewer.events.length > 0, "the link's replay");
    viewer.close();
    // A minute later the owner's allowance is back.
    clock.now += 60_000;
    (await connect(session, { after: 0 })).close();
  });
});

import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ConnectionTicketResponse } from "../../../src/protocol/wire/http";
import { checkTicket } from "../../../src/router/tickets/connection-ticket";
import { api, createSession, Device, ORIGIN } from "../../helpers/session-harness";
import { SseReader } from "../../helpers/sse-reader";
import { expectError, mintLink } from "./access-fixtures";

async function ticketFor(sessionId: string, token: string): Promise<ConnectionTicketResponse> {
  const response = await api("POST", `/api/sessions/${sessionId}/ws-ticket`, { token });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ConnectionTicketResponse;
}

function upgrade(sessionId: string, ticket: string): Promise<Response> {
  return exports.default.fetch(
    `${ORIGIN}/api/sessions/${sessionId}/ws?ticket=${encodeURIComponent(ticket)}`,
    {
      headers: { upgrade: "websocket" },
    },
  );
}

function stream(sessionId: string, ticket: string): Promise<Response> {
  return exports.default.fetch(
    `${ORIGIN}/api/sessions/${sessionId}/events/stream?ticket=${encodeURIComponent(ticket)}`,
  );
}

describe("connection tickets", () => {
  it("open one WebSocket with the asking token's role, and never a second", async () => {
    const session = await createSession();
    const link = await mintLink(session, { role: "view" });
    const { ticket, expiresAt } = await ticketFor(session.sessionId, link.token);
    expect(ticket).not.toContain(link.token);
    expect(expiresAt - Date.now()).toBeGreaterThan(20_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(30_000);

    const response = await upgrade(session.sessionId, ticket);
    expect(response.status).toBe(101);
    const socket = response.webSocket as WebSocket;
    socket.accept();
    const device = new Device(socket);
    await device.until(() => device.hello, "hello");
    expect(device.hello?.role).toBe("view");
    device.close();

    await expectError(await upgrade(session.sessionId, ticket), 403, "forbidden");
  });

  it("open one event stream, and never a second", async () => {
    const session = await createSession();
    const { ticket } = await ticketFor(session.sessionId, session.token);
    const first = await stream(session.sessionId, ticket);
    expect(first.status).toBe(200);
    const reader = new SseReader(first);
    await reader.until(() => reader.hello !== null, "hello");
    expect(reader.hello?.role).toBe("owner");
    await reader.close();
    await expectError(await stream(session.sessionId, ticket), 403, "forbidden");
  });

  it("are refused for another session, when forged, and once the token that asked was retired", async () => {
    const [session, other] = await Promise.all([createSession(), createSession()]);
    const { ticket } = await ticketFor(other.sessionId, other.token);
    await expectError(await upgrade(session.sessionId, ticket), 403, "forbidden");
    await expectError(await upgrade(session.sessionId, `${ticket.slice(0, -2)}xx`), 403, "forbidden");

    const link = await mintLink(session, { role: "answer" });
    const linkTicket = await ticketFor(session.sessionId, link.token);
    await api("DELETE", `/api/sessions/${session.sessionId}/links/${link.linkId}`, { token: session.token });
    await expectError(await upgrade(session.sessionId, linkTicket.ticket), 401, "link_revoked");

    const ownerTicket = await ticketFor(session.sessionId, session.token);
    await api("POST", `/api/sessions/${session.sessionId}/owner-token`, { token: session.token });
    await expectError(await stream(session.sessionId, ownerTicket.ticket), 401, "link_revoked");
  });

  it("expire 30 seconds after they are issued", async () => {
    const session = await createSession();
    const { ticket, expiresAt } = await ticketFor(session.sessionId, session.token);
    const secret = env.SESSION_SECRET as string;
    expect(await checkTicket(secret, session.sessionId, ticket, expiresAt - 1)).not.toBeNull();
    expect(await checkTicket(secret, session.sessionId, ticket, expiresAt)).toBeNull();
  });

  it("are accepted only on the WebSocket and the event stream", async () => {
    const session = await createSession();
    const { ticket } = await ticketFor(session.sessionId, session.token);
    const response = await exports.default.fetch(
      `${ORIGIN}/api/sessions/${session.sessionId}?ticket=${ticket}`,
    );
    await expectError(response, 401, "unauthorized");
  });
});

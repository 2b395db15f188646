// Inbox stream tickets: a browser puts a single-use, 30-second ticket in the inbox WebSocket's URL
// instead of its credential; the ticket admits one connection, and a forged one none.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ConnectionTicketResponse, MintedInboxLink } from "../../../src/protocol";
import { ORIGIN } from "../../helpers/session-harness";
import { Person } from "./inbox-fixtures";

function openSocket(query: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/inbox/ws?${query}`, { headers: { upgrade: "websocket" } });
}

async function firstFrame(response: Response): Promise<unknown> {
  const socket = response.webSocket;
  if (!socket) throw new Error(`no websocket: ${response.status}`);
  const frame = new Promise<unknown>((resolve) =>
    socket.addEventListener("message", (event) => resolve(JSON.parse(String(event.data))), { once: true }),
  );
  socket.accept();
  const value = await frame;
  socket.close();
  return value;
}

describe("inbox stream tickets", () => {
  it("open the inbox socket once with no credential in the URL, and never twice", async () => {
    const alice = new Person("alice.ticket@example.com");
    const asked = await alice.api("POST", "/api/inbox/ws-ticket");
    expect(asked.status).toBe(201);
    const { ticket } = (await asked.json()) as ConnectionTicketResponse;

    // The socket itself carries Access's assertion as a browser's cookie would; the ticket says who.
    const headers = await alice.headers({ upgrade: "websocket" });
    const first = await exports.default.fetch(`${ORIGIN}/api/inbox/ws?ticket=${ticket}`, { headers });
    expect(first.status).toBe(101);
    expect(await firstFrame(first)).toMatchObject({ type: "hello", view: { person: alice.email } });

    const again = await exports.default.fetch(`${ORIGIN}/api/inbox/ws?ticket=${ticket}`, { headers });
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ error: { message: expect.stringContaining("already used") } });
  });

  it("admit an inbox link's phone without Access, and refuse a forged ticket", async () => {
    const bob = new Person("bob.ticket@example.com");
    const minted = await bob.api("POST", "/api/inbox/links", { body: { role: "answer" } });
    const link = (await minted.json()) as MintedInboxLink;
    const asked = await exports.default.fetch(`${ORIGIN}/api/inbox/ws-ticket`, {
      method: "POST",
      headers: { authorization: `Bearer ${link.token}` },
    });
    expect(asked.status).toBe(201);
    const { ticket } = (await asked.json()) as ConnectionTicketResponse;
    const opened = await openSocket(`ticket=${ticket}`);
    expect(opened.status).toBe(101);
    expect(await firstFrame(opened)).toMatchObject({ type: "hello", view: { person: bob.email } });

    const forged = await openSocket(`ticket=${ticket.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(403);
  });

  it("are needed even when Access identifies the person: the cookie alone opens neither the socket nor the stream", async () => {
    const alice = new Person("alice.cookie-only@example.com");
    for (const path of ["/api/inbox/ws", "/api/inbox/stream"]) {
      const headers = await alice.headers(path.endsWith("ws") ? { upgrade: "websocket" } : {});
      const response = await exports.default.fetch(`${ORIGIN}${path}`, { headers });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toMatchObject({
        error: { code: "unauthorized", message: expect.stringContaining("ws-ticket") },
      });
    }
  });
});

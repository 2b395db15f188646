import { afterEach, describe, expect, it, vi } from "vitest";
import { InboxClient } from "../../../client/inbox-client";
import type { SocketLike } from "../../../client/session-socket";
import type { InboxEvent, InboxView } from "../../../src/protocol/index";

class FakeSocket implements SocketLike {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send() {}
  close() {}
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => queueMicrotask(resolve));
};

const SESSION = "c".repeat(32);
const view: InboxView = { person: "ana@example.com", lastSeq: 7, sessions: [], cards: [] };
const opened: InboxEvent = {
  seq: 8,
  at: 8,
  sessionId: SESSION,
  change: {
    type: "card_opened",
    card: {
      interactionId: "toolu_x",
      toolCallId: "toolu_x",
      kind: "question",
      toolName: "AskUserQuestion",
      request: {},
      createdAt: 0,
      expiresAt: 10,
    },
  },
};

function setup(answer: () => Response) {
  const sockets: FakeSocket[] = [];
  const asked: RequestInit[] = [];
  const client = new InboxClient({
    baseUrl: "https://parley.example",
    credential: "inbox-link-token-secret",
    fetch: async (_url, init) => {
      asked.push(init ?? {});
      return answer();
    },
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    backoffInitialMs: 1,
    backoffMaxMs: 1,
  });
  return { client, sockets, asked };
}

/** An answer the client reads at once (a real Response's body would need the event loop). */
function answer(status: number, body: unknown): Response {
  return { ok: status < 400, status, json: async () => body } as Response;
}

let tickets = 0;
const ticket = () => answer(201, { ticket: `ticket-${++tickets}`, expiresAt: 0 });

describe("the inbox client", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks a ticket with its credential, keeps the credential out of the socket URL, and resumes after the last seq", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { client, sockets, asked } = setup(ticket);
    const counts: number[] = [];
    client.on("view", (next) => counts.push(next.cards.length));
    client.connect();
    await settle();
    expect(asked[0]?.headers).toMatchObject({ authorization: "Bearer inbox-link-token-secret" });
    const first = new URL(sockets[0]!.url);
    expect(first.pathname).toBe("/api/inbox/ws");
    expect(first.searchParams.get("after")).toBe("0");
    expect(sockets[0]!.url).not.toContain("inbox-link-token-secret");

    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: "hello", view }) });
    sockets[0]!.onmessage?.({ data: JSON.stringify(opened) });
    sockets[0]!.onmessage?.({ data: JSON.stringify(opened) });
    expect(counts).toEqual([0, 1]);

    sockets[0]!.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(5);
    await settle();
    expect(sockets).toHaveLength(2);
    expect(new URL(sockets[1]!.url).searchParams.get("after")).toBe("8");
    expect(new URL(sockets[1]!.url).searchParams.get("ticket")).not.toBe(first.searchParams.get("ticket"));
    client.close();
  });

  it("ends for good when its inbox link is revoked, and does not reconnect", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { client, sockets } = setup(ticket);
    const ended: string[] = [];
    client.on("ended", (reason) => ended.push(reason));
    client.connect();
    await settle();
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: "hello", view }) });
    sockets[0]!.onclose?.({ code: 4001 });
    await vi.advanceTimersByTimeAsync(50);
    await settle();
    expect(ended).toEqual(["This inbox link was revoked."]);
    expect(sockets).toHaveLength(1);
  });

  it("ends when the server refuses the credential a ticket is asked with", async () => {
    const { client, sockets, asked } = setup(() =>
      Response.json(
        { error: { code: "forbidden", message: "This inbox link was revoked" } },
        { status: 403 },
      ),
    );
    const ended: string[] = [];
    client.on("ended", (reason) => ended.push(reason));
    client.connect();
    await settle();
    // The refusal is built from the answer's body a turn of the event loop later.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toHaveLength(1);
    expect(sockets).toHaveLength(0);
    expect(ended).toEqual(["This inbox link was revoked"]);
  });

  it("takes the person's chat accounts whole from a chat_links frame into its view, without moving its cursor", async () => {
    const { client, sockets } = setup(ticket);
    const views: InboxView[] = [];
    client.on("view", (next) => views.push(next));
    client.connect();
    await settle();
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: "hello", view: { ...view, chatLinks: [] } }) });
    const links = [{ linkId: "link-1", platform: "telegram", accountId: "42", name: "Ana" }];
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: "chat_links", links }) });
    expect(views.map((next) => next.chatLinks)).toEqual([[], links]);
    expect(client.view?.lastSeq).toBe(view.lastSeq);
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: "chat_links", links: [] }) });
    expect(client.view?.chatLinks).toEqual([]);
    client.close();
  });
});

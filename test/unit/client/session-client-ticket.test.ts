import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../client/session-api";
import { SessionClient } from "../../../client/session-client";
import type { SocketLike } from "../../../client/session-socket";
import { hello } from "../web/events";

class FakeSocket implements SocketLike {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send() {}
  close() {}
}

/** Resolves once every promise callback queued so far has run. */
const settle = () => new Promise<void>((resolve) => queueMicrotask(() => queueMicrotask(resolve)));

function setup(ticket: () => Promise<string>) {
  const sockets: FakeSocket[] = [];
  const client = new SessionClient({
    baseUrl: "https://parley.example",
    sessionId: "s1",
    token: "owner-token-secret",
    deviceId: "dev",
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    ticket,
    backoffInitialMs: 1,
    backoffMaxMs: 1,
  });
  return { client, sockets };
}

describe("session client connection tickets", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens every socket with a fresh ticket and never puts the token in its URL", async () => {
    // The reconnect waits out its backoff on a timer; the test moves that timer instead of sleeping.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let issued = 0;
    const { client, sockets } = setup(async () => `ticket-${++issued}`);
    client.connect();
    await settle();
    expect(sockets).toHaveLength(1);
    const first = new URL(sockets[0]!.url);
    expect(first.searchParams.get("ticket")).toBe("ticket-1");
    expect(sockets[0]!.url).not.toContain("owner-token-secret");
    sockets[0]!.onmessage?.({ data: JSON.stringify(hello()) });
    sockets[0]!.onclose?.({});
    await vi.advanceTimersByTimeAsync(5);
    await settle();
    expect(sockets).toHaveLength(2);
    expect(new URL(sockets[1]!.url).searchParams.get("ticket")).toBe("ticket-2");
    client.close();
  });

  it("ends for good when the server refuses the token a ticket is asked with", async () => {
    const { client, sockets } = setup(async () => {
      throw new ApiError(401, "link_revoked", "This share link was revoked by the session's owner");
    });
    const ended: string[] = [];
    client.on("ended", (reason) => ended.push(reason));
    client.connect();
    await settle();
    await settle();
    expect(sockets).toHaveLength(0);
    expect(ended).toEqual(["This share link was revoked by the session's owner"]);
    expect(client.connection.state).toBe("closed");
  });
});

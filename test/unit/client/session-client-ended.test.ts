import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionClient } from "../../../client/session-client";
import type { SocketLike } from "../../../client/session-socket";
import { hello } from "../web/events";

class FakeSocket implements SocketLike {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send() {}
  close() {}
}

function setup() {
  const sockets: FakeSocket[] = [];
  const client = new SessionClient({
    baseUrl: "http://127.0.0.1:8787",
    sessionId: "s1",
    token: "tok",
    deviceId: "dev",
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    backoffInitialMs: 1,
    backoffMaxMs: 2,
  });
  const ended: string[] = [];
  client.on("ended", (reason) => ended.push(reason));
  client.connect();
  sockets[0]?.onmessage?.({ data: JSON.stringify(hello()) });
  return { client, sockets, ended };
}

describe("a session client whose access ends", () => {
  // The reconnect backoff runs on a fake clock that each test moves on.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    [4001, /revoked/],
    [4002, /expired/],
    [4004, /deleted/],
  ])("stops reconnecting after close code %i and says why", async (code, reason) => {
    const { client, sockets, ended } = setup();
    sockets[0]?.onclose?.({ code });
    await vi.advanceTimersByTimeAsync(20);
    expect(sockets).toHaveLength(1);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatch(reason);
    expect(client.connection.state).toBe("closed");
  });

  it("reconnects as before after an ordinary close", async () => {
    const { sockets, ended } = setup();
    sockets[0]?.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(20);
    expect(sockets.length).toBeGreaterThan(1);
    expect(ended).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { buildShareUrl, parseSessionHash } from "../../../client/session-link";
import { backoffDelay, parseFrame, socketUrl } from "../../../client/session-socket";
import { hello } from "../web/events";

describe("server frames", () => {
  it("recognises hello, ack, batch, single events and pong", () => {
    expect(parseFrame(JSON.stringify(hello()))?.kind).toBe("hello");
    expect(parseFrame('{"type":"ack","requestId":"r1","ok":true}')?.kind).toBe("ack");
    expect(parseFrame("pong")).toEqual({ kind: "pong" });
    const event = { seq: 3, at: 1, type: "error", data: { code: "x", message: "y" } };
    expect(parseFrame(JSON.stringify(event))).toEqual({
      kind: "events",
      events: [event],
      replay: false,
      more: false,
    });
    expect(parseFrame(JSON.stringify({ type: "batch", events: [event, { junk: true }] }))).toEqual({
      kind: "events",
      events: [event],
      replay: true,
      more: false,
    });
    expect(parseFrame(JSON.stringify({ type: "batch", events: [event], more: true }))).toMatchObject({
      more: true,
    });
  });

  it("recognises a live delta frame and ignores one whose offset is not a count", () => {
    const delta = { type: "delta", turnId: "t1", call: 1, index: 0, offset: 4, text: "abc" };
    expect(parseFrame(JSON.stringify(delta))).toEqual({ kind: "delta", delta });
    expect(parseFrame(JSON.stringify({ ...delta, offset: -1 }))).toBeNull();
    expect(parseFrame(JSON.stringify({ ...delta, offset: 1.5 }))).toBeNull();
  });

  it("ignores frames it cannot read instead of throwing", () => {
    expect(parseFrame("{not json")).toBeNull();
    expect(parseFrame(JSON.stringify({ type: "hello" }))).toBeNull();
    expect(parseFrame(42)).toBeNull();
  });

  it("decodes binary frames as text", () => {
    expect(parseFrame(new TextEncoder().encode("pong"))).toEqual({ kind: "pong" });
  });
});

describe("socket address and backoff", () => {
  it("puts the ticket, resume cursor and device in the socket URL, and no token", () => {
    const target = { baseUrl: "https://x.example", sessionId: "abc", deviceId: "d1" };
    const url = new URL(socketUrl(target, { ticket: "a.b.c" }, 42));
    expect(url.protocol).toBe("wss:");
    expect(url.pathname).toBe("/api/sessions/abc/ws");
    expect(Object.fromEntries(url.searchParams)).toEqual({ ticket: "a.b.c", after: "42", device: "d1" });
  });

  it("puts the token in the socket URL only for a socket that cannot ask for a ticket", () => {
    const target = { baseUrl: "http://x.example", sessionId: "abc", deviceId: "d1" };
    const url = new URL(socketUrl(target, { token: "t/k" }, 0));
    expect(url.protocol).toBe("ws:");
    expect(url.searchParams.get("token")).toBe("t/k");
  });

  it("backs off exponentially up to the cap, with jitter", () => {
    expect(backoffDelay(1, 500, 15_000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 15_000, () => 1)).toBe(2_000);
    expect(backoffDelay(20, 500, 15_000, () => 1)).toBe(15_000);
    expect(backoffDelay(3, 500, 15_000, () => 0)).toBe(1_000);
  });
});

describe("share links", () => {
  it("round-trips a session id and token through the URL fragment", () => {
    const url = buildShareUrl("https://p.example", { sessionId: "abc123", token: "a+b/c=" });
    expect(url).toBe("https://p.example/#/s/abc123?token=a%2Bb%2Fc%3D");
    expect(parseSessionHash(new URL(url).hash)).toEqual({ sessionId: "abc123", token: "a+b/c=" });
  });

  it("treats anything else as the start page", () => {
    expect(parseSessionHash("")).toBeNull();
    expect(parseSessionHash("#/s/abc")).toBeNull();
    expect(parseSessionHash("#/other")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/config";

// The origin chat messages link to: an origin only, never a path or a plain-http public host.
const SESSION_SECRET = "s".repeat(32);
const TELEGRAM = { TELEGRAM_BOT_TOKEN: "1:t", TELEGRAM_WEBHOOK_SECRET_TOKEN: "secret-token-0123456" };

describe("PUBLIC_ORIGIN", () => {
  it("gives every chat platform the configured origin, and none without it", () => {
    const set = readConfig({ SESSION_SECRET, ...TELEGRAM, PUBLIC_ORIGIN: "https://parley.example.com/" });
    expect(set.channels.telegram?.publicOrigin).toBe("https://parley.example.com");
    expect(readConfig({ SESSION_SECRET, ...TELEGRAM }).channels.telegram?.publicOrigin).toBeNull();
  });

  it("refuses a path, a query, plain http beyond loopback and what is no URL, naming the variable", () => {
    for (const bad of [
      "https://parley.example.com/inbox",
      "https://parley.example.com/?x=1",
      "http://parley.example.com",
      "parley.example.com",
    ])
      expect(() => readConfig({ SESSION_SECRET, ...TELEGRAM, PUBLIC_ORIGIN: bad }), bad).toThrow(
        /PUBLIC_ORIGIN/,
      );
    expect(
      readConfig({ SESSION_SECRET, PUBLIC_ORIGIN: "http://127.0.0.1:8787" }).channels.telegram,
    ).toBeNull();
  });
});

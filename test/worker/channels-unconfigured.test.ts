// A deployment without a platform's secrets: the platform is off, its webhook answers 404 and no
// link code can be made for it.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { asOperator, ORIGIN } from "../helpers/session-harness";

describe("chat channels without their secrets", () => {
  it("answer 404 on Telegram's webhook, however it is signed", async () => {
    const response = await exports.default.fetch(`${ORIGIN}/api/channels/telegram`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-telegram-bot-api-secret-token": "anything-at-all-0000",
      },
      body: JSON.stringify({ update_id: 1 }),
    });
    expect(response.status).toBe(404);
  });

  it("answer 404 on Slack's webhook, even to Slack's URL check", async () => {
    const response = await exports.default.fetch(`${ORIGIN}/api/channels/slack`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-slack-request-timestamp": String(Math.floor(Date.now() / 1000)),
        "x-slack-signature": "v0=00",
      },
      body: JSON.stringify({ type: "url_verification", challenge: "c" }),
    });
    expect(response.status).toBe(404);
  });

  it("answer 404 on Discord's interactions endpoint, even to a ping", async () => {
    const response = await exports.default.fetch(`${ORIGIN}/api/channels/discord`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-signature-ed25519": "00".repeat(64),
        "x-signature-timestamp": "1",
      },
      body: JSON.stringify({ type: 1 }),
    });
    expect(response.status).toBe(404);
  });

  it("are listed as off, so the inbox page offers none", async () => {
    const response = await exports.default.fetch(`${ORIGIN}/api/channels`);
    expect(await response.json()).toEqual({ platforms: [] });
  });

  it("refuse to make a link code for a platform that is off, naming it", async () => {
    // The person asks (a link code is theirs): the operator of a gateway with a token.
    const response = await asOperator("POST", "/api/channels/link-codes", { body: { platform: "telegram" } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: "not_found", message: "Telegram is not configured on this server" },
    });
    const discord = await asOperator("POST", "/api/channels/link-codes", { body: { platform: "discord" } });
    expect(await discord.json()).toMatchObject({
      error: { code: "not_found", message: "Discord is not configured on this server" },
    });
  });
});

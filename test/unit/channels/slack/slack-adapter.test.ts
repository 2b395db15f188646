// Which failures of Slack's Web API the inbox's outbox tries again: the client's own error codes
// mapped to the names the outbox retries on (src/channels/chat-sender.ts `failureOf`).
import { describe, expect, it } from "vitest";
import { failureOf } from "../../../../src/channels/chat-sender";
import { retryable } from "../../../../src/channels/slack/slack-adapter";
import { readConfig } from "../../../../src/config";

const SESSION_SECRET = "s".repeat(32);

function webApiError(code: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(`${code} happened`), { code, ...extra });
}

describe("slack's web api failures", () => {
  it("retries a 5xx, a request that got no answer and a rate limit", () => {
    expect(failureOf(retryable(webApiError("slack_webapi_http_error", { statusCode: 503 }))).retry).toBe(
      true,
    );
    expect(failureOf(retryable(webApiError("slack_webapi_request_error"))).retry).toBe(true);
    expect(failureOf(retryable(webApiError("slack_webapi_rate_limited_error"))).retry).toBe(true);
  });

  it("does not retry Slack's refusals or a 4xx, and keeps their message", () => {
    const refused = webApiError("slack_webapi_platform_error", { data: { error: "channel_not_found" } });
    expect(failureOf(retryable(refused))).toEqual({ retry: false, message: refused.message });
    expect(failureOf(retryable(webApiError("slack_webapi_http_error", { statusCode: 404 }))).retry).toBe(
      false,
    );
  });
});

describe("slack's configuration", () => {
  it("is off unless both the bot token and the signing secret are set", () => {
    expect(readConfig({ SESSION_SECRET, SLACK_BOT_TOKEN: "xoxb-1" }).channels.slack).toBeNull();
    expect(
      readConfig({ SESSION_SECRET, SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "0123456789abcdef" })
        .channels.slack,
    ).toEqual({
      botToken: "xoxb-1",
      signingSecret: "0123456789abcdef",
      apiBaseUrl: null,
      publicOrigin: null,
    });
  });

  it("refuses a token that is not a bot token, naming the variable", () => {
    expect(() =>
      readConfig({
        SESSION_SECRET,
        SLACK_BOT_TOKEN: "xoxp-user-token",
        SLACK_SIGNING_SECRET: "0123456789abcdef",
      }),
    ).toThrow(/SLACK_BOT_TOKEN/);
  });
});

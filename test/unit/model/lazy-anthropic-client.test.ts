// The Anthropic client a session gets loads the SDK on its first model call; until then it already
// names its model, and every call after the first reuses one SDK client.
import { describe, expect, it } from "vitest";
import { lazyAnthropicClient } from "../../../src/model/lazy-anthropic-client";
import { createMessagesApiFetch } from "../../helpers/messages-api-fetch";
import { call, request } from "./assemble-events";

describe("the Anthropic client loaded on first use", () => {
  it("names its model before any call, then streams each reply from the Messages API", async () => {
    const api = createMessagesApiFetch([
      { reply: { content: [{ type: "text", text: "First" }] } },
      { reply: { content: [{ type: "text", text: "Second" }] } },
    ]);
    const client = lazyAnthropicClient({ apiKey: "sk-test-key", model: "claude-test-1", fetch: api.fetch });
    expect([client.name, client.demo]).toEqual(["claude-test-1", false]);

    const first = await call(client, request({ model: "claude-test-1" }));
    const second = await call(client, request({ model: "claude-test-1" }));
    expect(JSON.stringify(first)).toContain("First");
    expect(JSON.stringify(second)).toContain("Second");
    expect(api.requests.map((sent) => sent.body.model)).toEqual(["claude-test-1", "claude-test-1"]);
  });

  it("turns an API error into the same model error as the SDK client", async () => {
    const api = createMessagesApiFetch([
      { status: 400, error: { type: "invalid_request_error", message: "bad" } },
    ]);
    const client = lazyAnthropicClient({
      apiKey: "sk-test-key",
      model: "claude-test-1",
      fetch: api.fetch,
      maxRetries: 0,
    });
    await expect(call(client, request({ model: "claude-test-1" }))).rejects.toMatchObject({
      code: "invalid_request",
    });
  });
});

import { describe, expect, it } from "vitest";
import { AnthropicModelClient } from "../../../src/model/anthropic-client";
import type { ModelRequest } from "../../../src/model/model-client";
import { sseEvents } from "../../../src/model/sse-events";
import { createMessagesApiFetch, type FakeApiResponse } from "../../helpers/messages-api-fetch";
import { call, request } from "./assemble-events";
import { describeModelClientContract, expectModelError } from "./model-client.contract";

function clientFor(responses: FakeApiResponse[], maxRetries?: number) {
  const api = createMessagesApiFetch(responses);
  const client = new AnthropicModelClient({
    apiKey: "sk-test-key",
    model: "claude-test",
    fetch: api.fetch,
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
  return { api, client };
}

const hello: FakeApiResponse = { reply: { content: [{ type: "text", text: "Hello from the API" }] } };
// retry-after-ms keeps the SDK's backoff to a millisecond instead of half a second and up.
const fastRetry = { "retry-after-ms": "1" };

describeModelClientContract(
  "AnthropicModelClient",
  (script) => clientFor(script.map((reply) => ({ reply }))).client,
);

describe("the fake Messages API behind these tests", () => {
  it("really serves SSE with pings in 1–7 byte chunks, so the SDK's parser must reassemble them", async () => {
    const api = createMessagesApiFetch([hello]);
    const response = await api.fetch("https://api.anthropic.com/v1/messages", {
      method: "POST",
      body: JSON.stringify(request()),
    });
    const sizes: number[] = [];
    const decoder = new TextDecoder();
    let text = "";
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      sizes.push(chunk.value.byteLength);
      text += decoder.decode(chunk.value, { stream: true });
    }
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
    expect(new Set(sizes).size).toBeGreaterThan(3);
    expect(text).toContain("event: ping\n");
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
  });
});

describe("AnthropicModelClient", () => {
  it("sends the whole request as one streaming Messages API call", async () => {
    const { api, client } = clientFor([hello]);
    const body: ModelRequest = request({
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral", ttl: "1h" } }],
      tools: [
        {
          name: "current_time",
          description: "The current time.",
          input_schema: { type: "object", properties: {} },
          cache_control: { type: "ephemeral", ttl: "1h" },
        },
      ],
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral", ttl: "5m" } }],
        },
      ],
    });
    await call(client, body);

    const [sent] = api.requests;
    expect(sent?.url).toBe("https://api.anthropic.com/v1/messages");
    expect(sent?.method).toBe("POST");
    // SDK 1.x sends the API key as a bearer token.
    expect(sent?.headers.get("authorization")).toBe("Bearer sk-test-key");
    expect(sent?.headers.get("anthropic-version")).toBeTruthy();
    expect(sent?.body).toEqual({ ...body, stream: true });
  });

  it("never sends the name of the agent a call is for, which the Messages API does not know", async () => {
    const { api, client } = clientFor([hello]);
    const body: ModelRequest = request({ agent: "researcher" });
    await call(client, body);

    expect(api.requests[0]?.body).not.toHaveProperty("agent");
    expect(api.requests[0]?.body).toMatchObject({ model: body.model, messages: body.messages });
  });

  it("passes 1-hour cache_control markers through without any beta header", async () => {
    const { api, client } = clientFor([hello]);
    await call(
      client,
      request({
        system: [{ type: "text", text: "Long prompt", cache_control: { type: "ephemeral", ttl: "1h" } }],
      }),
    );
    const [sent] = api.requests;
    expect(sent?.body.system).toEqual([
      { type: "text", text: "Long prompt", cache_control: { type: "ephemeral", ttl: "1h" } },
    ]);
    expect(sent?.headers.get("anthropic-beta")).toBeNull();
  });

  it("leaves out an empty tool list", async () => {
    const { api, client } = clientFor([hello]);
    await call(client, request({ tools: [] }));
    expect(api.requests[0]?.body).not.toHaveProperty("tools");
  });

  it("retries an overloaded (529) API and streams the reply once it recovers", async () => {
    const { api, client } = clientFor([
      { status: 529, error: { type: "overloaded_error", message: "Overloaded" }, headers: fastRetry },
      { status: 500, error: { type: "api_error", message: "Internal error" }, headers: fastRetry },
      hello,
    ]);
    const message = await call(client);
    expect(message.content[0]).toMatchObject({ text: "Hello from the API" });
    expect(api.requests).toHaveLength(3);
  });

  it("gives up with 'overloaded' once the retries are spent", async () => {
    const overloaded: FakeApiResponse = {
      status: 529,
      error: { type: "overloaded_error", message: "Overloaded" },
      headers: fastRetry,
    };
    const { api, client } = clientFor([overloaded, overloaded, overloaded], 2);
    await expectModelError(call(client), "overloaded");
    expect(api.requests).toHaveLength(3);
  });

  it("reports a rate limit that outlasts the retries as 'rate_limited'", async () => {
    const limited: FakeApiResponse = {
      status: 429,
      error: { type: "rate_limit_error", message: "Too many requests" },
      headers: fastRetry,
    };
    const { client } = clientFor([limited, limited], 1);
    await expectModelError(call(client), "rate_limited");
  });

  it("fails a rejected API key at once with 'authentication', without retrying", async () => {
    const { api, client } = clientFor([
      { status: 401, error: { type: "authentication_error", message: "invalid x-api-key" } },
      hello,
    ]);
    const error = await expectModelError(call(client), "authentication");
    expect(error.message).toContain("invalid x-api-key");
    expect(api.requests).toHaveLength(1);
  });

  it("fails a malformed request with 'invalid_request', without retrying", async () => {
    const { api, client } = clientFor([
      { status: 400, error: { type: "invalid_request_error", message: "messages: field required" } },
      hello,
    ]);
    await expectModelError(call(client), "invalid_request");
    expect(api.requests).toHaveLength(1);
  });

  it("turns a mid-stream overloaded error event into a ModelError", async () => {
    const { client } = clientFor([
      {
        reply: {
          content: [{ type: "text", text: "Half an answer and then" }],
          error: { code: "overloaded", message: "Overloaded", afterEvents: 5 },
        },
      },
    ]);
    await expectModelError(call(client), "overloaded");
  });

  it("reports an unreachable API as 'connection' once the retries are spent", async () => {
    const { api, client } = clientFor([{ networkError: "connect ECONNREFUSED" }], 0);
    await expectModelError(call(client), "connection");
    expect(api.requests).toHaveLength(1);
  });

  it("treats a stream that closes before message_stop as a dropped connection", async () => {
    const events = sseEvents(
      { content: [{ type: "text", text: "cut short" }] },
      { callIndex: 0, model: "m" },
    );
    const { client } = clientFor([{ events: events.slice(0, 3) }]);
    await expectModelError(call(client), "connection");
  });

  it("passes a max_tokens stop reason through", async () => {
    const { client } = clientFor([
      { reply: { content: [{ type: "text", text: "and then the" }], stopReason: "max_tokens" } },
    ]);
    expect((await call(client)).stopReason).toBe("max_tokens");
  });

  it("is named after its model and is not the demo", () => {
    expect(clientFor([]).client).toMatchObject({ name: "claude-test", demo: false });
  });
});

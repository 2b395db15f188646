// A model outage that outlasts the SDK's own retries, end to end: the real Anthropic SDK retries
// 529s and 429s from the fake API, gives up, and the session waits on its alarm instead of failing.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageParam } from "../../../src/model/model-client";
import { createMessagesApiFetch, type FakeApiResponse } from "../../helpers/messages-api-fetch";
import { MODEL_API_HOST } from "../../helpers/model-api-bindings";
import { serveHosts } from "../../helpers/model-api-network";
import { connect, createSession } from "../../helpers/session-harness";
import { passRetryTime, stubOf } from "../../helpers/session-object-probe";

/** The SDK's own attempts per call: the first and its 4 retries. */
const SDK_ATTEMPTS = 5;
// retry-after-ms keeps the SDK's own backoff to a millisecond.
const fast = { "retry-after-ms": "1" };
const overloaded: FakeApiResponse = {
  status: 529,
  error: { type: "overloaded_error", message: "Overloaded" },
  headers: fast,
};
const hello: FakeApiResponse = { reply: { content: [{ type: "text", text: "Back again." }] } };

let responses: FakeApiResponse[] = [];
const api = createMessagesApiFetch(() => responses.shift() ?? hello);
serveHosts({ [MODEL_API_HOST]: api.fetch });

function fresh(next: FakeApiResponse[]): void {
  api.requests.length = 0;
  responses = next;
}

describe("a model outage behind the real SDK", () => {
  it("waits out 529s the SDK gave up on, tells every device, and the alarm re-sends the stored transcript", async () => {
    fresh(Array.from({ length: SDK_ATTEMPTS }, () => overloaded));
    const session = await createSession();
    const phone = await connect(session);
    const laptop = await connect(session);
    const before = api.requests.length;
    await phone.request({ type: "send_message", text: "hello" });
    const retry = await phone.waitForEvent("model_retry");
    expect(retry.data).toMatchObject({ attempt: 1, code: "overloaded", message: "Overloaded" });
    await laptop.waitForEvent("model_retry");
    expect(api.requests.length - before).toBe(SDK_ATTEMPTS);
    expect(phone.event("done")).toBeUndefined();

    await passRetryTime(session);
    await runDurableObjectAlarm(stubOf(session));
    expect((await phone.waitForDone()).data.stopReason).toBe("end_turn");
    expect(phone.event("error")).toBeUndefined();
    const sent = api.requests.map((request) => request.body.messages as MessageParam[]);
    expect(sent).toHaveLength(SDK_ATTEMPTS + 1);
    expect(sent.at(-1)).toEqual(sent[0]);
    phone.close();
    laptop.close();
  });

  it("honours the retry-after of the rate limit the SDK gave up on", async () => {
    const limited = (headers: Record<string, string>): FakeApiResponse => ({
      status: 429,
      error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your rate limit" },
      headers,
    });
    fresh([
      ...Array.from({ length: SDK_ATTEMPTS - 1 }, () => limited(fast)),
      limited({ "retry-after": "90" }),
    ]);
    const session = await createSession();
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello" });
    const retry = await device.waitForEvent("model_retry");
    expect(retry.data).toMatchObject({ attempt: 1, code: "rate_limited" });
    expect(retry.data.retryAt - retry.at).toBeGreaterThan(89_000);
    expect(retry.data.retryAt - retry.at).toBeLessThanOrEqual(90_000);
    device.close();
  });
});

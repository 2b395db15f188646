import { describe, expect, it } from "vitest";
import { RETRY_NOW_MIN_INTERVAL_MS, SOCKET_COMMAND_BURST } from "../../../src/protocol/limits";
import { api, connect, createSession, textReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { mintLink } from "./access-fixtures";
import { SLOW_REFILL_PER_SECOND, shrinkHttpBudget } from "./command-budget-fixtures";

const overloaded = () => ({ content: [], error: { code: "overloaded", message: "Overloaded" } });

function post(session: { sessionId: string }, path: string, token: string): Promise<Response> {
  return api("POST", `/api/sessions/${session.sessionId}${path}`, { token, body: {} });
}

describe("HTTP command routes", () => {
  it("answer a token that sends commands too fast with 429 rate_limited and Retry-After, changing nothing", async () => {
    const session = await createSession();
    await shrinkHttpBudget(session.sessionId, 3);
    const before = await storageFingerprint(session.sessionId);
    for (let i = 0; i < 3; i++) expect((await post(session, "/cancel", session.token)).status).toBe(409);

    const refused = await post(session, "/cancel", session.token);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBe(Math.ceil(1 / SLOW_REFILL_PER_SECOND));
    const body = (await refused.json()) as {
      error: { code: string; message: string; retryAfterSeconds: number };
    };
    expect(body.error).toEqual({
      code: "rate_limited",
      message: `Too many commands with this token; retry in ${wait} s`,
      retryAfterSeconds: wait,
    });
    expect(await storageFingerprint(session.sessionId)).toBe(before);

    // Each token has its own allowance: a share link is still served while the owner waits.
    const link = await mintLink(session, { role: "answer" });
    expect((await post(session, "/cancel", link.token)).status).toBe(409);
    // The owner's allowance refills: after the announced wait it is served again.
    await advanceClock(session, { by: wait * 1_000 });
    expect((await post(session, "/cancel", session.token)).status).toBe(409);
    expect((await post(session, "/cancel", session.token)).status).toBe(429);
  });

  it("use the socket's burst by default: a burst of that many commands is served", async () => {
    const session = await createSession();
    for (let i = 0; i < SOCKET_COMMAND_BURST; i++) {
      expect((await post(session, "/cancel", session.token)).status).toBe(409);
    }
  });

  it("refuse a second retry now within the minimum interval, naming the wait, and accept it after", async () => {
    const session = await createSession({ script: [overloaded(), overloaded(), textReply("Back.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello" });
    await device.waitForEvent("model_retry");
    expect((await post(session, "/retry-now", session.token)).status).toBe(200);
    await device.until(
      () => device.events.filter((e) => e.type === "model_retry").length === 2,
      "a second wait",
    );

    const again = await post(session, "/retry-now", session.token);
    expect(again.status).toBe(429);
    const wait = Number(again.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(RETRY_NOW_MIN_INTERVAL_MS / 1000);
    const body = (await again.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/retry_now was used \d+ s ago; it may be used once every 10 s/);
    // The socket is refused the same way: the interval belongs to the session, not the route.
    expect(await device.request({ type: "retry_now" })).toMatchObject({ error: { code: "rate_limited" } });

    await advanceClock(session, { by: RETRY_NOW_MIN_INTERVAL_MS });
    expect((await post(session, "/retry-now", session.token)).status).toBe(200);
    expect((await device.waitForDone()).data.stopReason).toBe("end_turn");
    device.close();
  });
});

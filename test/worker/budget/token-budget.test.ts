import { describe, expect, it, vi } from "vitest";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock, modelRequests } from "../../helpers/session-object-probe";

// This runtime sets SESSION_TOKEN_BUDGET=1000 (vitest.config.ts): one reply of 1 100 tokens spends it.
const SPENDING = { usage: { input_tokens: 700, output_tokens: 400 } };

function postMessage(session: { sessionId: string; token: string }, text: string): Promise<Response> {
  return api("POST", `/api/sessions/${session.sessionId}/messages`, { token: session.token, body: { text } });
}

describe("the daily model token budget", () => {
  it("refuses the model call that would overspend it: every device sees why, and the model is not called", async () => {
    const session = await createSession({
      script: [
        { ...toolReply([{ name: "current_time", input: { timeZone: "UTC" } }]), ...SPENDING },
        textReply("Never sent."),
      ],
    });
    const phone = await connect(session);
    const laptop = await connect(session);
    await phone.request({ type: "send_message", text: "what time is it?" });
    const done = await phone.waitForDone();
    expect(done.data.stopReason).toBe("error");

    for (const device of [phone, laptop]) {
      await device.waitForEvent("error");
      expect(device.event("error")?.data).toEqual({
        code: "budget_exhausted",
        message: expect.stringMatching(
          /used its model budget for today \(1100 of 1000 tokens, SESSION_TOKEN_BUDGET\); the model can be called again after \d{4}-\d\d-\d\dT00:00:00\.000Z/,
        ),
      });
    }
    // The tool ran and its result is kept; the second model call never happened.
    expect(phone.event("tool_result")).toBeDefined();
    expect(await modelRequests(session)).toHaveLength(1);
    phone.close();
    laptop.close();
  });

  it("answers requests that would start a model call with 409 budget_exhausted until the next UTC day", async () => {
    const session = await createSession({ script: [textReply("Spent.", SPENDING), textReply("A new day.")] });
    const device = await connect(session);
    expect((await postMessage(session, "first")).status).toBe(202);
    await device.waitForDone();

    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const refused = await postMessage(session, "second");
    const logged = warn.mock.calls.map((call) => String(call[0]));
    warn.mockRestore();
    expect(logged.map((text) => JSON.parse(text))).toContainEqual(
      expect.objectContaining({
        event: "budget_exhausted",
        sessionId: session.sessionId,
        linkId: null,
        reason: "send_message",
        status: 409,
      }),
    );
    expect(logged.join("\n")).not.toContain(session.token);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect({ status: refused.status, code: body.error.code }).toEqual({
      status: 409,
      code: "budget_exhausted",
    });
    expect(body.error.message).toMatch(/1100 of 1000 tokens/);
    expect(await device.request({ type: "send_message", text: "over the socket" })).toMatchObject({
      error: { code: "budget_exhausted" },
    });
    expect(await device.request({ type: "retry_now" })).toMatchObject({
      error: { code: "budget_exhausted" },
    });
    expect(await modelRequests(session)).toHaveLength(1);

    // The budget is per day: after midnight UTC the session may call the model again.
    const now = await advanceClock(session, { by: 0 });
    await advanceClock(session, { at: (Math.floor(now / 86_400_000) + 1) * 86_400_000 + 1 });
    expect((await postMessage(session, "tomorrow")).status).toBe(202);
    await device.waitForDone(2);
    expect(await modelRequests(session)).toHaveLength(2);
    device.close();
  });
});

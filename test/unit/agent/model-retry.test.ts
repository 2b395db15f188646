import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../../src/agent/model-retry";
import { reviewStop } from "../../../src/agent/stop-reasons";
import { retryAfterMs } from "../../../src/model/anthropic-client";

describe("backoff for a model outage", () => {
  it("doubles from the base wait, caps at five minutes, and never waits less than retry-after", () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, 5_000, null))).toEqual([
      5_000, 10_000, 20_000, 40_000,
    ]);
    expect(backoffDelay(20, 5_000, null)).toBe(300_000);
    expect(backoffDelay(1, 5_000, 60_000)).toBe(60_000);
    expect(backoffDelay(3, 5_000, 1_000)).toBe(20_000);
  });

  it("reads retry-after as milliseconds, seconds or an HTTP date, and ignores nonsense", () => {
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after-ms": "1500" }), now)).toBe(1_500);
    expect(retryAfterMs(new Headers({ "retry-after": "30" }), now)).toBe(30_000);
    expect(retryAfterMs(new Headers({ "retry-after": "Mon, 23 Nov 2026 10:01:00 GMT" }), now)).toBe(60_000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});

describe("stop reasons", () => {
  const text = { type: "text" as const, text: "Let me write that." };
  const call = { type: "tool_use" as const, id: "toolu_1", name: "notes_write", input: {} };

  it("continues after pause_turn and leaves ordinary stops alone", () => {
    expect(reviewStop([text], "pause_turn")).toEqual({ content: [text], notice: null, continuePaused: true });
    expect(reviewStop([text, call], "tool_use")).toEqual({
      content: [text, call],
      notice: null,
      continuePaused: false,
    });
  });

  it("drops only a tool call cut off by max_tokens, and says so", () => {
    const reviewed = reviewStop([text, call], "max_tokens");
    expect(reviewed.content).toEqual([text]);
    expect(reviewed.notice?.code).toBe("max_tokens");
    expect(reviewStop([text], "max_tokens").content).toEqual([text]);
  });

  it("gives a refusal a notice", () => {
    expect(reviewStop([text], "refusal").notice?.code).toBe("refusal");
  });
});

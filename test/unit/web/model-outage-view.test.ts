import { describe, expect, it } from "vitest";
import { initialView, reduceView, type SessionView } from "../../../web/src/session-state";
import { ev, hello } from "./events";

function apply(view: SessionView, ...events: Parameters<typeof ev>[]): SessionView {
  return reduceView(view, { type: "events", events: events.map((args) => ev(...args)) });
}

const noticeTexts = (view: SessionView) =>
  view.order.flatMap((id) => {
    const item = view.items.get(id);
    return item?.kind === "notice" ? [item.text] : [];
  });

describe("the view of a model outage and of how a reply ended", () => {
  it("shows a waiting retry until the re-issued call makes progress", () => {
    let view = apply(
      initialView(),
      [1, "turn_started", { turnId: "t1", messageId: "m1" }],
      [
        2,
        "model_retry",
        { turnId: "t1", attempt: 1, retryAt: 5_000, code: "overloaded", message: "Overloaded" },
      ],
    );
    expect(view.modelRetry).toEqual({ attempt: 1, retryAt: 5_000 });
    expect(noticeTexts(view)[0]).toMatch(
      /unavailable \(overloaded: Overloaded\); retrying at .* \(attempt 1\)/,
    );
    view = apply(view, [3, "text_delta", { turnId: "t1", index: 0, text: "Back." }]);
    expect(view.modelRetry).toBeNull();
  });

  it("learns of a waiting retry from the hello snapshot of a device that joins late", () => {
    const view = reduceView(initialView(), {
      type: "hello",
      frame: hello({ status: "running", modelRetry: { attempt: 2, retryAt: 9_000, code: "rate_limited" } }),
      receivedAt: 0,
    });
    expect(view.modelRetry).toEqual({ attempt: 2, retryAt: 9_000 });
  });

  it("tells the person when old tool results were cleared or history was summarized", () => {
    const data = { turnId: "t1", clearedResults: 0, summarizedMessages: 0, tokensBefore: 9, tokensAfter: 3 };
    const view = apply(
      initialView(),
      [1, "context_compacted", { ...data, action: "cleared_tool_results", clearedResults: 4 }],
      [2, "context_compacted", { ...data, action: "summarized", summarizedMessages: 12 }],
    );
    expect(noticeTexts(view)).toEqual([
      "4 old tool result(s) were cleared to stay within the model's context window.",
      "Earlier conversation (12 messages) was summarized by the model to stay within its context window.",
    ]);
  });

  it("shows the server's notice for a refusal once, and warns before the session expires", () => {
    const view = apply(
      initialView(),
      [1, "turn_notice", { turnId: "t1", code: "refusal", message: "The model declined." }],
      [2, "done", { turnId: "t1", stopReason: "refusal", usage: null }],
      [3, "session_expiring", { expiresAt: Date.UTC(2026, 11, 24) }],
    );
    const notices = noticeTexts(view);
    expect(notices[0]).toBe("The model declined.");
    expect(notices).toHaveLength(2);
    expect(notices[1]).toMatch(/will be deleted at .* unless it is used before/);
  });
});

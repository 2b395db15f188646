import { describe, expect, it } from "vitest";
import { initialView, reduceView, type SessionView } from "../../../web/src/session-state";
import { ev, hello } from "./events";

const researcher = {
  frameId: "f1",
  agent: "researcher",
  parentToolCallId: "toolu_d",
  task: "Look it up",
  depth: 1,
};

const history = [
  ev(1, "user_message", { messageId: "m1", text: "research", queued: false, deviceId: "laptop" }),
  ev(2, "turn_started", { turnId: "t1", messageId: "m1" }),
  ev(3, "tool_call_start", { turnId: "t1", toolCallId: "toolu_d", name: "Agent", index: 0 }),
  ev(4, "agent_started", researcher),
  ev(5, "text_delta", { turnId: "t1", index: 0, text: "Which version?" }),
  ev(6, "done", { turnId: "t1", stopReason: "end_turn", usage: null }),
  ev(7, "user_message", { messageId: "m2", text: "3.13", queued: false, deviceId: "phone" }),
];

function events(view: SessionView, list: typeof history): SessionView {
  return reduceView(view, { type: "events", events: list });
}

function labels(view: SessionView): string[] {
  return view.order.map((id) => {
    const item = view.items.get(id);
    if (item?.kind === "notice") return `notice:${item.text}`;
    return `${item?.kind}:${item?.agent ?? "main"}`;
  });
}

describe("the agent stack in the web view", () => {
  it("labels every message and tool card with the agent that spoke or was spoken to", () => {
    const view = events(initialView(), history);
    expect(labels(view)).toEqual([
      "user:main",
      "tool:main",
      "notice:researcher took over the conversation — Look it up",
      "assistant:researcher",
      "user:researcher",
    ]);
    expect(view.stack).toEqual([researcher]);
  });

  it("pops the stack when the agent completes, and says how it ended", () => {
    const view = events(events(initialView(), history), [
      ev(8, "agent_completed", {
        frameId: "f1",
        agent: "researcher",
        outcome: "ended",
        result: "The person ended it.",
      }),
      ev(9, "text_delta", { turnId: "t2", index: 0, text: "Back to me." }),
    ]);
    expect(view.stack).toEqual([]);
    expect(labels(view).slice(-2)).toEqual([
      "notice:researcher was ended by you: The person ended it.",
      "assistant:main",
    ]);
  });

  it("shows a late joiner the stack from the snapshot without counting the replayed start twice", () => {
    let view = reduceView(initialView(), {
      type: "hello",
      frame: hello({ lastSeq: 7, stack: [researcher] }),
      receivedAt: 50_000,
    });
    expect(view.stack).toEqual([researcher]);
    view = events(view, history);
    expect(view.stack).toEqual([researcher]);
    expect(labels(view).at(-1)).toBe("user:researcher");
  });
});

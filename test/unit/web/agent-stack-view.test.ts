import { describe, expect, it } from "vitest";
import { isTopAgentPrompt, pendingInteractions } from "../../../web/src/interaction-view";
import { initialView, reduceView, type SessionView } from "../../../web/src/session-state";
import { ev, hello, QUESTION_REQUEST } from "./events";

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

  it("labels marked events by their own mark, even for a device that joined after the agent started", () => {
    const main = { frameId: "main", agent: "main", depth: 0 };
    const mark = { frameId: "f1", agent: "researcher", depth: 1 };
    // The device resumes past agent_started, so no fold could tell it who speaks.
    let view = reduceView(initialView(), {
      type: "hello",
      frame: hello({ lastSeq: 4, stack: [researcher] }),
      receivedAt: 50_000,
    });
    view = events(view, [
      ev(5, "text_delta", { turnId: "t1", index: 0, text: "Which version?", call: 2, offset: 0, ...mark }),
      ev(6, "tool_result", {
        toolCallId: "toolu_w",
        name: "notes_write",
        content: "saved",
        isError: false,
        truncated: false,
        ...main,
      }),
      ev(7, "user_message", { messageId: "m2", text: "3.13", queued: false, deviceId: "phone", ...mark }),
    ]);
    view = reduceView(view, {
      type: "delta",
      frame: { type: "delta", turnId: "t2", call: 1, index: 0, offset: 0, text: "Noted", ...mark },
    });
    expect(labels(view)).toEqual([
      "assistant:researcher",
      "tool:main",
      "user:researcher",
      "assistant:researcher",
    ]);
  });

  it("labels a queued message with the agent its turn started in", () => {
    const view = events(events(initialView(), history), [
      ev(8, "user_message", { messageId: "m3", text: "later", queued: true, deviceId: "phone" }),
      ev(9, "agent_completed", { frameId: "f1", agent: "researcher", outcome: "completed", result: "3.13" }),
      ev(10, "turn_started", { turnId: "t3", messageId: "m3", frameId: "main", agent: "main", depth: 0 }),
    ]);
    expect(labels(view).at(-1)).toBe("user:main");
  });

  it("puts the top agent's open card first, and only its questions read the chat", () => {
    const prompt = (seq: number, toolCallId: string, frameId: string, agent: string, depth: number) =>
      ev(seq, "question_prompt", {
        toolCallId,
        kind: "question",
        toolName: "AskUserQuestion",
        request: QUESTION_REQUEST,
        createdAt: 1_000,
        expiresAt: 601_000,
        frameId,
        agent,
        depth,
      });
    const view = events(initialView(), [
      prompt(1, "toolu_main", "main", "main", 0),
      ev(2, "agent_started", researcher),
      prompt(3, "toolu_child", "f1", "researcher", 1),
    ]);
    const open = pendingInteractions(view);
    expect(open.map((p) => p.interaction.toolCallId)).toEqual(["toolu_child", "toolu_main"]);
    expect(open.map((p) => isTopAgentPrompt(view, p.interaction))).toEqual([true, false]);
    expect(open.map((p) => p.item.agent)).toEqual(["researcher", null]);
  });
});

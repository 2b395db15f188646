import { describe, expect, it } from "vitest";
import { OPERATOR } from "../../../src/protocol/access/people";
import { initialView, reduceView, type SessionView, type ToolItem } from "../../../web/src/session-state";
import { ev, hello, questionPrompt } from "./events";

function apply(view: SessionView, ...events: Parameters<typeof ev>[]): SessionView {
  return reduceView(view, { type: "events", events: events.map((args) => ev(...args)) });
}
function texts(view: SessionView): string[] {
  return view.order.map((id) => {
    const item = view.items.get(id)!;
    return item.kind === "tool" ? `tool:${item.name}` : `${item.kind}:${item.text}`;
  });
}
function tool(view: SessionView, toolCallId: string): ToolItem {
  const item = view.items.get(`tool:${toolCallId}`);
  if (item?.kind !== "tool") throw new Error(`no tool card for ${toolCallId}`);
  return item;
}

function live(call: number, index: number, offset: number, text: string, toolCallId?: string) {
  return {
    type: "delta" as const,
    frame: {
      type: "delta" as const,
      turnId: "t1",
      call,
      index,
      offset,
      text,
      ...(toolCallId ? { toolCallId } : {}),
    },
  };
}

describe("session view reducer", () => {
  it("shows live deltas at once and merges the stored copy that follows without doubling it", () => {
    let view = apply(initialView(), [1, "turn_started", { turnId: "t1", messageId: "m1" }]);
    view = reduceView(view, live(1, 0, 0, "Hel"));
    view = reduceView(view, live(1, 0, 3, "lo, "));
    expect(texts(view)).toEqual(["assistant:Hello, "]);
    view = apply(view, [2, "text_delta", { turnId: "t1", index: 0, text: "Hello, ", call: 1, offset: 0 }]);
    view = reduceView(view, live(1, 0, 7, "world"));
    view = apply(view, [3, "text_delta", { turnId: "t1", index: 0, text: "world", call: 1, offset: 7 }]);
    expect(texts(view)).toEqual(["assistant:Hello, world"]);
    // The next model call of the turn starts its blocks at index 0 again: a new item, not a merge.
    view = reduceView(view, live(2, 0, 0, "Again"));
    expect(texts(view)).toEqual(["assistant:Hello, world", "assistant:Again"]);
  });

  it("merges live and stored tool input by offset, and drops a lost call's live text on turn_restarted", () => {
    let view = apply(
      initialView(),
      [1, "turn_started", { turnId: "t1", messageId: "m1" }],
      [2, "tool_call_start", { turnId: "t1", toolCallId: "toolu_1", name: "notes_read", index: 0 }],
    );
    view = reduceView(view, live(1, 0, 0, '{"key"', "toolu_1"));
    view = apply(view, [
      3,
      "tool_call_delta",
      { toolCallId: "toolu_1", partialJson: '{"key":"a"}', offset: 0 },
    ]);
    view = reduceView(view, live(1, 0, 6, ':"a"}', "toolu_1"));
    expect(tool(view, "toolu_1").argsJson).toBe('{"key":"a"}');

    view = reduceView(view, live(2, 1, 0, "lost text"));
    view = apply(view, [4, "turn_restarted", { turnId: "t1", reason: "lost" }]);
    expect(texts(view).filter((t) => t.startsWith("assistant"))).toEqual([]);
  });

  it("shows a message sent during a turn as queued until its own turn starts", () => {
    let view = apply(
      initialView(),
      [1, "user_message", { messageId: "m1", text: "first", queued: false, deviceId: "a" }],
      [2, "turn_started", { turnId: "t1", messageId: "m1" }],
      [3, "user_message", { messageId: "m2", text: "second", queued: true, deviceId: "a" }],
      [4, "text_delta", { turnId: "t1", index: 0, text: "reply one" }],
    );
    expect(texts(view)).toEqual(["user:first", "assistant:reply one"]);
    expect(view.queued.map((m) => m.text)).toEqual(["second"]);

    view = apply(
      view,
      [5, "done", { turnId: "t1", stopReason: "end_turn", usage: null }],
      [6, "turn_started", { turnId: "t2", messageId: "m2" }],
      [7, "text_delta", { turnId: "t2", index: 0, text: "reply two" }],
    );
    expect(view.queued).toEqual([]);
    expect(texts(view)).toEqual(["user:first", "assistant:reply one", "user:second", "assistant:reply two"]);
  });

  it("keeps who sent a message and who cancelled the turn, as the server named them", () => {
    const who = "Ana's phone (share link 0123abcd)";
    const view = apply(
      initialView(),
      [1, "user_message", { messageId: "m1", text: "go", queued: false, deviceId: "laptop", by: who }],
      [2, "turn_started", { turnId: "t1", messageId: "m1" }],
      [3, "done", { turnId: "t1", stopReason: "cancelled", usage: null, by: who }],
      [
        4,
        "user_message",
        { messageId: "m2", text: "again", queued: false, deviceId: "laptop", by: OPERATOR },
      ],
      [5, "turn_started", { turnId: "t2", messageId: "m2" }],
      [6, "done", { turnId: "t2", stopReason: "cancelled", usage: null, by: OPERATOR }],
    );
    const user = view.items.get("user:m1");
    expect(user?.kind === "user" && user.by).toBe(who);
    // The one person of a deployment without identities names nobody a reader could tell apart.
    expect(texts(view)).toEqual([
      "user:go",
      `notice:Turn cancelled by ${who}.`,
      "user:again",
      "notice:Turn cancelled.",
    ]);
  });

  it("joins streamed text into one message however the deltas are split", () => {
    const view = apply(
      initialView(),
      [1, "turn_started", { turnId: "t1", messageId: "m1" }],
      [2, "text_delta", { turnId: "t1", index: 0, text: "Hel" }],
      [3, "text_delta", { turnId: "t1", index: 0, text: "lo, " }],
      [4, "text_delta", { turnId: "t1", index: 0, text: "world" }],
    );
    expect(texts(view)).toEqual(["assistant:Hello, world"]);
    const done = apply(view, [5, "done", { turnId: "t1", stopReason: "end_turn", usage: null }]);
    expect(done.items.get(done.order[0]!)).toMatchObject({ streaming: false });
  });

  it("starts a fresh message for the model call that follows a tool result", () => {
    const view = apply(
      initialView(),
      [1, "turn_started", { turnId: "t1", messageId: "m1" }],
      [2, "text_delta", { turnId: "t1", index: 0, text: "Checking the time." }],
      [3, "tool_call_start", { turnId: "t1", toolCallId: "toolu_1", name: "current_time", index: 1 }],
      [4, "tool_call_delta", { toolCallId: "toolu_1", partialJson: "{}" }],
      [5, "tool_call_end", { toolCallId: "toolu_1", name: "current_time", input: {} }],
      [
        6,
        "tool_result",
        { toolCallId: "toolu_1", name: "current_time", content: "noon", isError: false, truncated: false },
      ],
      [7, "text_delta", { turnId: "t1", index: 0, text: "It is noon." }],
    );
    expect(texts(view)).toEqual([
      "assistant:Checking the time.",
      "tool:current_time",
      "assistant:It is noon.",
    ]);
    expect(tool(view, "toolu_1")).toMatchObject({ phase: "done", input: {}, result: { content: "noon" } });
  });

  it("ignores events it has already applied, so replays and live frames can overlap", () => {
    const once = apply(initialView(), [1, "text_delta", { turnId: "t1", index: 0, text: "abc" }]);
    const twice = apply(once, [1, "text_delta", { turnId: "t1", index: 0, text: "abc" }]);
    expect(texts(twice)).toEqual(["assistant:abc"]);
    expect(twice.lastSeq).toBe(1);
  });

  it("keeps the first resolution of a prompt and ignores any later one", () => {
    let view = reduceView(initialView(), { type: "events", events: [questionPrompt(1)] });
    expect(tool(view, "toolu_q").interactions[0]).toMatchObject({ kind: "question", resolution: null });
    view = apply(view, [
      2,
      "interaction_resolved",
      {
        toolCallId: "toolu_q",
        kind: "question",
        outcome: "answered",
        response: { answers: { "Which colour?": "Red" } },
        resolvedBy: "device-b",
        resolvedAt: 5,
      },
    ]);
    view = reduceView(view, {
      type: "resolution",
      resolution: {
        toolCallId: "toolu_q",
        kind: "question",
        outcome: "timed_out",
        response: null,
        resolvedBy: null,
        resolvedAt: 9,
      },
    });
    expect(tool(view, "toolu_q").interactions[0]?.resolution).toMatchObject({
      outcome: "answered",
      resolvedBy: "device-b",
    });
  });

  it("drops the partial output of a model call the server restarted", () => {
    const view = apply(
      initialView(),
      [1, "user_message", { messageId: "m1", text: "hi", queued: false, deviceId: null }],
      [2, "turn_started", { turnId: "t1", messageId: "m1" }],
      [3, "text_delta", { turnId: "t1", index: 0, text: "half a sen" }],
      [4, "turn_restarted", { turnId: "t1", reason: "evicted" }],
      [5, "text_delta", { turnId: "t1", index: 0, text: "A whole sentence." }],
    );
    expect(texts(view)).toEqual([
      "user:hi",
      "notice:The model call was interrupted; it restarted from the saved transcript.",
      "assistant:A whole sentence.",
    ]);
  });

  it("takes status, demo flag, clock skew and pending prompts from the hello snapshot", () => {
    const view = reduceView(initialView(), {
      type: "hello",
      receivedAt: 48_000,
      frame: hello({
        status: "awaiting_input",
        demo: true,
        serverTime: 50_000,
        pending: [
          {
            toolCallId: "toolu_a",
            kind: "approval",
            toolName: "notes_write",
            request: { toolName: "notes_write", input: { key: "k" }, risk: "edit" },
            status: "pending",
            createdAt: 1,
            expiresAt: 90_000,
          },
        ],
      }),
    });
    expect(view).toMatchObject({
      status: "awaiting_input",
      demo: true,
      clockSkewMs: 2_000,
      deviceId: "device-a",
    });
    expect(tool(view, "toolu_a").interactions[0]).toMatchObject({
      kind: "approval",
      expiresAt: 90_000,
      resolution: null,
    });
  });

  it("keeps a prompt named by the hello snapshot in its place when the full history replays after it", () => {
    let view = reduceView(initialView(), {
      type: "hello",
      receivedAt: 50_000,
      frame: hello({
        status: "awaiting_input",
        pending: [
          {
            toolCallId: "toolu_q",
            kind: "question",
            toolName: "AskUserQuestion",
            request: {},
            status: "pending",
            createdAt: 0,
            expiresAt: 600_000,
          },
        ],
      }),
    });
    view = apply(
      view,
      [1, "user_message", { messageId: "m1", text: "plan my day", queued: false, deviceId: "a" }],
      [2, "turn_started", { turnId: "t1", messageId: "m1" }],
      [3, "text_delta", { turnId: "t1", index: 0, text: "One question first." }],
      [4, "tool_call_start", { turnId: "t1", toolCallId: "toolu_q", name: "AskUserQuestion", index: 1 }],
    );
    view = reduceView(view, { type: "events", events: [questionPrompt(5)] });
    expect(texts(view)).toEqual([
      "user:plan my day",
      "assistant:One question first.",
      "tool:AskUserQuestion",
    ]);
    expect(tool(view, "toolu_q").interactions[0]).toMatchObject({ kind: "question", resolution: null });
  });

  it("reports a failed turn with its error and remembers the last message for a retry", () => {
    const view = apply(
      initialView(),
      [1, "user_message", { messageId: "m1", text: "try this", queued: false, deviceId: "a" }],
      [2, "session_status", { status: "failed", mode: "plan", error: "model overloaded" }],
    );
    expect(view).toMatchObject({
      status: "failed",
      error: "model overloaded",
      mode: "plan",
      lastUserText: "try this",
    });
  });

  it("never changes the view it was given", () => {
    const before = apply(initialView(), [1, "text_delta", { turnId: "t1", index: 0, text: "a" }]);
    const snapshot = JSON.stringify({ ...before, items: [...before.items] });
    apply(
      before,
      [2, "text_delta", { turnId: "t1", index: 0, text: "b" }],
      [3, "error", { code: "x", message: "y" }],
    );
    expect(JSON.stringify({ ...before, items: [...before.items] })).toBe(snapshot);
  });
});

describe("a card given more time", () => {
  it("takes the new deadline from the event on every device, and a resolved card keeps its own", () => {
    let view = apply(initialView(), [1, "turn_started", { turnId: "t1", messageId: "m1" }]);
    view = reduceView(view, { type: "events", events: [questionPrompt(2, "toolu_q", 600_000)] });
    const extended = {
      toolCallId: "toolu_q",
      interactionId: "toolu_q",
      kind: "question",
      expiresAt: 1_200_000,
      previousExpiresAt: 600_000,
      extendedBy: "phone",
    };
    view = apply(view, [3, "interaction_extended", extended]);
    expect(tool(view, "toolu_q").interactions[0]?.expiresAt).toBe(1_200_000);
    view = apply(view, [
      4,
      "interaction_resolved",
      {
        toolCallId: "toolu_q",
        interactionId: "toolu_q",
        kind: "question",
        outcome: "timed_out",
        response: null,
        resolvedBy: null,
        resolvedAt: 1_200_001,
      },
    ]);
    view = apply(view, [5, "interaction_extended", { ...extended, expiresAt: 1_800_000 }]);
    expect(tool(view, "toolu_q").interactions[0]?.expiresAt).toBe(1_200_000);
  });
});

describe("a card that needs a second person", () => {
  it("takes each count from approval_counted, and a resolved card keeps the count it had", () => {
    let view = apply(initialView(), [1, "turn_started", { turnId: "t1", messageId: "m1" }]);
    view = reduceView(view, { type: "events", events: [questionPrompt(2, "toolu_q", 600_000)] });
    const counted = {
      toolCallId: "toolu_q",
      interactionId: "toolu_q",
      approvals: { needed: 2, given: 1, by: ["ana"] },
      decider: { kind: "person" as const, label: "ana", id: "ana", device: "page" as const },
      deviceId: "phone",
      at: 10,
    };
    view = apply(view, [3, "approval_counted", counted]);
    expect(tool(view, "toolu_q").interactions[0]?.approvals).toEqual({ needed: 2, given: 1, by: ["ana"] });
    view = apply(view, [
      4,
      "interaction_resolved",
      {
        toolCallId: "toolu_q",
        interactionId: "toolu_q",
        kind: "question",
        outcome: "timed_out",
        response: null,
        resolvedBy: null,
        resolvedAt: 11,
      },
    ]);
    view = apply(view, [
      5,
      "approval_counted",
      { ...counted, approvals: { needed: 2, given: 2, by: ["ana", "bo"] } },
    ]);
    expect(tool(view, "toolu_q").interactions[0]?.approvals?.given).toBe(1);
  });
});

// The page's view of a message to an agent that runs elsewhere: shown at once, waiting for the
// agent, then naming the bridge that delivered it; a stopped session says it takes no more.
import { describe, expect, it } from "vitest";
import { initialView, reduceView, type SessionView } from "../../../web/src/session-state";
import { ev } from "./events";

function apply(view: SessionView, ...events: Parameters<typeof ev>[]): SessionView {
  return reduceView(view, { type: "events", events: events.map((args) => ev(...args)) });
}

const toAgent = { messageId: "msg_1", text: "Rename the branch", queued: false, deviceId: "phone" };

describe("a message to an external agent on the page", () => {
  it("is in the transcript waiting for the agent, then delivered by the bridge that said so", () => {
    let view = apply(initialView(), [1, "user_message", { ...toAgent, awaitsAgent: true, interrupt: true }]);
    expect(view.items.get("user:msg_1")).toMatchObject({
      text: "Rename the branch",
      delivery: null,
      interrupt: true,
    });
    expect(view.queued).toEqual([]);
    view = apply(view, [2, "message_delivered", { messageId: "msg_1", bridge: "parley acp" }]);
    expect(view.items.get("user:msg_1")).toMatchObject({ delivery: "parley acp" });
  });

  it("leaves a message to Parley's own agent without a delivery state, and says when the session stopped", () => {
    let view = apply(initialView(), [1, "user_message", toAgent]);
    expect(view.items.get("user:msg_1")).not.toHaveProperty("delivery");
    view = apply(view, [2, "session_stopped", { by: "ana@example.com" }]);
    const last = view.items.get(view.order.at(-1) ?? "");
    expect(last).toMatchObject({ kind: "notice", text: expect.stringMatching(/stopped/) });
  });
});

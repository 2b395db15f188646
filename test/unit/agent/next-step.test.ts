// The loop's decision, branch by branch: state written into the in-memory stores, the step read back.
import { describe, expect, it } from "vitest";
import { MAX_RESTARTS, nextStep, readLoopState } from "../../../src/agent/next-step";
import type { TurnRecord } from "../../../src/agent/ports";
import { MAIN_FRAME_ID } from "../../../src/protocol/session/main-frame";
import { loopHarness } from "./loop-harness";

function harness() {
  const h = loopHarness([]);
  const step = () => nextStep(readLoopState(h.deps));
  return { ...h, step };
}

const TURN: TurnRecord = {
  id: "turn_1",
  messageId: "msg_1",
  iterations: 0,
  usage: { input_tokens: 0, output_tokens: 0 },
  pausedForPerson: false,
  callInFlight: false,
  restarts: 0,
};

/** A harness in the middle of a turn: the person asked, and the turn has made `turn`'s calls. */
function midTurn(turn: Partial<TurnRecord> = {}) {
  const h = harness();
  h.stores.transcript.append("user", [{ type: "text", text: "hello" }]);
  h.stores.turn.save({ ...TURN, ...turn });
  return h;
}

function delegate(h: ReturnType<typeof harness>, agent: string, depth = 1) {
  const frameId = `frame_${agent}`;
  h.stores.frames.push({
    frameId,
    agent,
    parentToolCallId: `toolu_${agent}`,
    parentFrameId: depth === 1 ? MAIN_FRAME_ID : `frame_parent_${depth}`,
    task: "a task",
    depth,
    startedAt: 0,
  });
  return frameId;
}

describe("the loop's next step", () => {
  it("stops with no turn and nothing queued, and begins a turn for a queued message", () => {
    const h = harness();
    expect(h.step()).toEqual({ step: "stop" });
    h.stores.queue.push({ id: "msg_1", text: "hi" });
    expect(h.step()).toEqual({ step: "begin_turn" });
  });

  it("fails the turn instead of calling the model once the session's budget is spent", () => {
    const h = midTurn({ iterations: 1 });
    const message = "The session spent its model budget for today.";
    expect(nextStep({ ...readLoopState(h.deps), budgetRefusal: message })).toEqual({
      step: "budget_exhausted",
      turn: expect.objectContaining({ id: "turn_1" }),
      message,
    });
    expect(h.step()).toMatchObject({ step: "call_model" });
  });

  it("calls the model when the person spoke last", () => {
    expect(midTurn().step()).toMatchObject({ step: "call_model", turn: { id: "turn_1" } });
  });

  it("settles the tool calls of the model's last message", () => {
    const h = midTurn({ iterations: 1 });
    const use = { type: "tool_use" as const, id: "toolu_1", name: "current_time", input: {} };
    h.stores.transcript.append("assistant", [{ type: "text", text: "Let me look." }, use]);
    expect(h.step()).toEqual({
      step: "settle_tools",
      turn: expect.objectContaining({ id: "turn_1" }),
      uses: [use],
    });
  });

  it("ends the turn after a reply without tool calls, but continues one that paused", () => {
    const h = midTurn({ iterations: 1 });
    h.stores.transcript.append("assistant", [{ type: "text", text: "Done." }]);
    expect(h.step().step).toBe("end_turn");
    h.stores.turn.save({ ...TURN, iterations: 1, continuePaused: true });
    expect(h.step().step).toBe("call_model");
  });

  it("restarts a lost call, and fails the turn once it was lost too often", () => {
    const h = midTurn({ iterations: 1, callInFlight: true, restarts: MAX_RESTARTS - 1 });
    expect(h.step().step).toBe("restart_call");
    h.stores.turn.save({ ...TURN, iterations: 1, callInFlight: true, restarts: MAX_RESTARTS });
    expect(h.step().step).toBe("fail_lost_call");
  });

  it("stops a turn that reached the iteration limit", () => {
    const h = midTurn({ iterations: 25 });
    expect(h.deps.settings.maxTurnIterations).toBe(25);
    expect(h.step().step).toBe("iteration_limit");
    h.stores.turn.save({ ...TURN, iterations: 24 });
    expect(h.step().step).toBe("call_model");
  });

  it("checks a lost call before the iteration limit, so the lost call is told first", () => {
    expect(midTurn({ iterations: 25, callInFlight: true }).step().step).toBe("restart_call");
  });

  it("waits for a model retry that is not due yet, and calls once the clock reaches it", () => {
    const h = midTurn({ iterations: 1 });
    const retry = {
      attempt: 1,
      since: h.clock.now,
      at: h.clock.now + 5_000,
      code: "overloaded",
      message: "busy",
    };
    h.stores.turn.save({ ...TURN, iterations: 1, retry });
    expect(h.step()).toMatchObject({ step: "wait_retry", at: retry.at });
    h.clock.now = retry.at;
    expect(h.step().step).toBe("call_model");
  });

  it("pops a delegated agent past its own limit, naming it in the result for its parent", () => {
    const h = midTurn({ iterations: 3 });
    const frameId = delegate(h, "echo");
    h.stores.frames.countModelCall(frameId);
    expect(h.step().step).toBe("call_model");
    h.stores.frames.countModelCall(frameId);
    expect(h.step()).toMatchObject({
      step: "pop_frame",
      frame: { frameId, agent: "echo" },
      result: 'Agent "echo" stopped after 2 model calls (its limit) without calling complete.',
    });
  });

  it("pops a delegated agent whose definition is gone", () => {
    const h = midTurn({ iterations: 1 });
    delegate(h, "vanished");
    expect(h.step()).toMatchObject({
      step: "pop_frame",
      result: 'Agent "vanished" is no longer defined, so it could not continue.',
    });
  });

  it("decides for the top frame only when agents are nested", () => {
    const h = midTurn({ iterations: 1 });
    const parent = delegate(h, "echo");
    h.stores.frames.countModelCall(parent);
    h.stores.frames.countModelCall(parent);
    delegate(h, "researcher", 2);
    // The parent is at its limit, but the child on top holds the conversation and may still call.
    expect(h.step()).toMatchObject({ step: "call_model" });
    expect(readLoopState(h.deps).top?.frame.agent).toBe("researcher");
  });

  it("reads without writing: deciding twice gives the same step and leaves the stores alone", () => {
    const h = midTurn({ iterations: 1, callInFlight: true });
    const before = h.stores.events.events.length;
    expect(h.step()).toEqual(h.step());
    expect(h.stores.events.events).toHaveLength(before);
    expect(h.stores.turn.current()?.callInFlight).toBe(true);
  });
});

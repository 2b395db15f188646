import { describe, expect, it } from "vitest";
import { ReplayBudget } from "../../../src/objects/replay-budget";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { connect, createSession, textReply } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

describe("replayed history per credential", () => {
  it("answers a flood of resume with rate_limited once the credential's replay budget is spent", async () => {
    const session = await createSession({ script: [textReply("A reply worth replaying. ".repeat(40))] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello" });
    await device.waitForDone();
    // The real budget is 32 MiB a minute; this session's history is small, so its object gets a
    // budget of a few replays of it.
    const clock = { now: Date.now() };
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => {
      inside(instance).swap({ replayBudget: new ReplayBudget(() => clock.now, 3_000) });
    });
    const acks = [];
    for (let i = 0; i < 6; i += 1) acks.push(await device.request({ type: "resume", after: 0 }));
    const codes = acks.map((ack) => (ack.ok ? "ok" : ack.error?.code));
    expect(codes.slice(0, 2)).toEqual(["ok", "ok"]);
    expect(codes.at(-1)).toBe("rate_limited");
    expect(codes.filter((code) => code === "ok").length).toBeLessThan(6);
    // The socket stays open.
    expect(device.closed).toBe(false);
    device.close();
  });
});

describe("the replay budget", () => {
  it("refuses once a minute's bytes are spent and starts afresh the next minute", () => {
    let now = 0;
    const budget = new ReplayBudget(() => now, 1_000);
    const owner = "owner";
    expect(budget.allows(owner)).toBe(true);
    budget.charge(owner, 999);
    expect(budget.allows(owner)).toBe(true);
    budget.charge(owner, 1);
    expect(budget.allows(owner)).toBe(false);
    // Another credential has its own allowance.
    expect(budget.allows("link:abc")).toBe(true);
    now = 59_999;
    expect(budget.allows(owner)).toBe(false);
    now = 60_000;
    expect(budget.allows(owner)).toBe(true);
  });
});

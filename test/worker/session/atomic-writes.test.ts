// One storage transaction for work that must land whole (a batch decision, a reply in chat): when it
// throws, none of its rows stay and none of its events reach a device; when it returns, all do.
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import type { SessionState } from "../../../src/session/session-state";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { connect, createSession } from "../../helpers/session-harness";
import { storageDump, stubOf } from "../../helpers/session-object-probe";

function stateOf(instance: SessionObject): SessionState {
  return inside(instance).state;
}

/** `read()` before and after `work` ran in a transaction that then threw, so it was rolled back. */
function aroundRollback<T>(state: SessionState, read: () => T, work: () => void): { before: T; after: T } {
  const before = read();
  try {
    state.atomically(() => {
      work();
      throw new Error("half way");
    });
  } catch {
    // The rollback is what these tests look at.
  }
  return { before, after: read() };
}

describe("atomic writes", () => {
  it("rolls back every row and holds back every event of work that throws", async () => {
    const session = await createSession();
    const device = await connect(session);
    const before = await storageDump(session);
    const outcome = await runInDurableObject(stubOf(session), (instance: SessionObject) => {
      const state = stateOf(instance);
      try {
        state.atomically(() => {
          state.events.append("error", { code: "internal", message: "first" });
          state.meta.set("probe", 1);
          state.events.append("error", { code: "internal", message: "second" });
          throw new Error("half way");
        });
      } catch (error) {
        return { thrown: (error as Error).message, lastSeq: state.events.lastSeq };
      }
      return null;
    });
    expect(outcome).toEqual({ thrown: "half way", lastSeq: 0 });
    expect(await storageDump(session)).toEqual(before);

    // The next event takes the next free seq, and is the first this device ever hears of.
    await runInDurableObject(stubOf(session), (instance: SessionObject) => {
      const state = stateOf(instance);
      state.atomically(() => state.events.append("error", { code: "internal", message: "kept" }));
    });
    const kept = await device.waitForEvent("error");
    expect(kept).toMatchObject({ seq: 1, data: { message: "kept" } });
    expect(device.events.map((event) => event.seq)).toEqual([1]);
    device.close();
  });

  it("reads back a setting's stored value after the work that changed it was rolled back", async () => {
    const session = await createSession();
    const read = await runInDurableObject(stubOf(session), (instance: SessionObject) => {
      const state = stateOf(instance);
      return aroundRollback(
        state,
        () => state.turn.mode(),
        () => {
          state.meta.set("mode", "bypassPermissions");
          expect(state.turn.mode()).toBe("bypassPermissions");
        },
      );
    });
    expect(read.after).toBe(read.before);
  });

  it("reads the next deadline from storage again after the work that opened a card was rolled back", async () => {
    const session = await createSession();
    const read = await runInDurableObject(stubOf(session), (instance: SessionObject) => {
      const state = stateOf(instance);
      return aroundRollback(
        state,
        () => state.interactions.earliestDeadline(),
        () => {
          state.interactions.create({
            id: "toolu_rolled_back",
            toolCallId: "toolu_rolled_back",
            frameId: "main",
            kind: "question",
            toolName: "AskUserQuestion",
            request: {},
            deadline: 1_000,
            createdAt: 0,
          });
          // Read inside the work, so a kept copy would hold the card the rollback removes.
          expect(state.interactions.earliestDeadline()).toBe(1_000);
        },
      );
    });
    expect(read).toEqual({ before: null, after: null });
  });
});

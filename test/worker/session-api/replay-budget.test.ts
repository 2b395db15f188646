// A long history is replayed in parts: each replay stops at its byte budget, says `more`, and the
// next `resume` continues from the last seq sent — exactly, with nothing skipped or repeated.
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/protocol";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { connect, createSession, textReply } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { expectContiguous, waitForIdle } from "./channel-fixtures";

type Batch = { type: "batch"; events: SessionEvent[]; more?: boolean };

/** Replays through the session's own event log with a small budget, in the object itself. */
async function replay(sessionId: string, after: number, budget: number): Promise<Batch[]> {
  return runInDurableObject(stubOf(sessionId), (instance: SessionObject) => {
    const { state } = inside(instance);
    return [...state.events.replayFrames(after, budget)].map((frame) => JSON.parse(frame) as Batch);
  });
}

describe("replaying a long history", () => {
  it("stops at the byte budget with more set, and continues exactly where it stopped", async () => {
    const session = await createSession({
      script: Array.from({ length: 4 }, (_, i) => textReply(`Reply ${i} `.repeat(30), { textChunkSize: 5 })),
    });
    const device = await connect(session);
    for (let i = 0; i < 4; i += 1) await device.request({ type: "send_message", text: `message ${i}` });
    await waitForIdle(device, 4);
    const lastSeq = device.events.at(-1)?.seq ?? 0;

    const seen: SessionEvent[] = [];
    let after = 0;
    let parts = 0;
    for (;;) {
      const batches = await replay(session.sessionId, after, 2_000);
      parts += 1;
      const events = batches.flatMap((b) => b.events);
      expect(events.length).toBeGreaterThan(0);
      seen.push(...events);
      after = events.at(-1)?.seq ?? after;
      const more = batches.at(-1)?.more === true;
      expect(batches.slice(0, -1).every((b) => b.more === undefined)).toBe(true);
      if (!more) break;
      expect(parts).toBeLessThan(100);
    }
    expect(parts).toBeGreaterThan(1);
    expectContiguous(
      seen.map((e) => e.seq),
      1,
    );
    expect(seen.at(-1)?.seq).toBe(lastSeq);
    expect(seen).toEqual(device.events);
  });
});

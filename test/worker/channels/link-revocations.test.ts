// What an ended chat link owes other objects is rows in SQLite until each is done: an inbox that
// cannot be reached is tried again on the schedule, past its end at the last wait, never given up,
// and a revocation done goes.
import { describe, expect, it } from "vitest";
import {
  LinkRevocations,
  REVOCATION_RETRY_MS,
  type RevocationTargets,
  type SeeAllPage,
} from "../../../src/channels/link-revocations";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { stubOf } from "../../helpers/session-object-probe";
import { Person } from "../inbox/inbox-fixtures";

describe("revocations an ended chat link owes", () => {
  it("are retried while the inbox cannot be reached, past the schedule's end, and go once done", async () => {
    // A session object's SQLite as scratch storage: real SQLite, no other writer.
    const scratch = await new Person("revocations.scratch@example.com").createSession();
    await runInDurableObject<SessionObject, void>(stubOf(scratch), async (_instance, state) => {
      let now = 1_000_000;
      const revocations = new LinkRevocations(state.storage.sql, () => now);
      let unreachable = REVOCATION_RETRY_MS.length + 2;
      const removed: string[] = [];
      const revoked: SeeAllPage[] = [];
      const targets: RevocationTargets = {
        removeChatLink: async (person, linkId) => {
          if (unreachable > 0) {
            unreachable -= 1;
            throw new Error("The inbox could not be reached");
          }
          removed.push(`${person}/${linkId}`);
        },
        revokePage: async (_person, page) => {
          revoked.push(page);
        },
      };
      const page = { sessionId: "session-a", pageLinkId: "page-a" };
      revocations.add("ann@example.com", "link-a", [page]);
      expect(revocations.nextDue()).toBe(now);

      await revocations.deliverDue(now, targets);
      // The page was revoked and is done; the removal waits for its first retry.
      expect(revoked).toEqual([page]);
      expect(revocations.nextDue()).toBe(now + REVOCATION_RETRY_MS[0]);
      await revocations.deliverDue(now + REVOCATION_RETRY_MS[0] - 1, targets);
      expect(unreachable).toBe(REVOCATION_RETRY_MS.length + 1);

      const waits: number[] = [];
      while (unreachable > 0) {
        const due = revocations.nextDue() as number;
        waits.push(due - now);
        now = due;
        await revocations.deliverDue(now, targets);
      }
      expect(waits).toEqual([...REVOCATION_RETRY_MS, REVOCATION_RETRY_MS.at(-1)]);
      expect(removed).toEqual([]);

      now = revocations.nextDue() as number;
      await revocations.deliverDue(now, targets);
      expect(removed).toEqual(["ann@example.com/link-a"]);
      expect(revocations.nextDue()).toBeNull();
      expect(revoked).toEqual([page]);
    });
  });
});

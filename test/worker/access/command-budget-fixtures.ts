// Gives a session's object a small HTTP command allowance that refills slowly, so a test reaches
// the limit in a few requests however slowly the machine runs them.
import { HttpCommandBudget } from "../../../src/session/budgets/http-command-budget";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { stubOf } from "../../helpers/session-object-probe";

/** A burst of `burst` commands per token, refilled at one per 100 s of the object's clock. */
export const SLOW_REFILL_PER_SECOND = 0.01;

export async function shrinkHttpBudget(sessionId: string, burst: number): Promise<void> {
  await runInDurableObject(stubOf(sessionId), (instance: SessionObject) => {
    inside(instance).swap({
      httpBudget: new HttpCommandBudget(() => instance.clock.now(), {
        socketCommandBurst: burst,
        socketCommandsPerSecond: SLOW_REFILL_PER_SECOND,
      }),
    });
  });
}

// The demo model's outage tour: picked from the demo's question, the model is "overloaded" (the
// API's 529) for its next two calls, so the page shows the wait, its time and "Retry now"; the
// third call goes through and the turn completes, with nothing lost.
import type { ToolResultBlockParam } from "./model-client";
import type { ScriptedReply } from "./scripted-reply";

/** How many calls in a row fail before the demo model recovers. */
export const DEMO_OUTAGE_FAILURES = 2;

/**
 * The reply to the answers that picked the tour. The demo decides from the transcript alone, and a
 * retried call sends the same transcript, so the attempt is counted from the call index: the
 * question was asked by call N (its tool_use id is `toolu_N_…`, as the scripted model names ids),
 * so call N+1 is the first attempt after the answer.
 */
export function outageTour(result: ToolResultBlockParam, callIndex: number): ScriptedReply {
  const asked = Number(/^toolu_(\d+)_\d+$/.exec(result.tool_use_id)?.[1] ?? Number.NaN);
  const attempt = callIndex - asked; // 1 for the first call after the answers
  if (Number.isInteger(attempt) && attempt >= 1 && attempt <= DEMO_OUTAGE_FAILURES) {
    return { content: [], error: { code: "overloaded", message: "Overloaded" } };
  }
  return {
    content: [
      {
        type: "text",
        text:
          `I'm back. The model was overloaded — the API's 529 — ${DEMO_OUTAGE_FAILURES} times in a row. ` +
          "Parley did not fail the turn: it told every device when it would try again, waited longer " +
          "after each failure, and the session's alarm re-sent the call from the saved transcript " +
          "(“Retry now” skips the wait). A real outage works the same way, and gives up only after " +
          "MODEL_RETRY_GIVE_UP_MS. Send another message to go round again.",
      },
    ],
    stopReason: "end_turn",
  };
}

// Model outages that outlast the SDK's own retries (overload, rate limits, 5xx, lost connections)
// do not fail the turn: it waits on a deadline with exponential backoff, announced to every device,
// and the alarm re-issues the call from the stored transcript — the path a lost call takes.
import { ModelError, type ModelErrorCode } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import type { ModelRetry, TurnRecord } from "./ports";
import { failTurn } from "./turn-ending";

const RETRYABLE: ReadonlySet<ModelErrorCode> = new Set([
  "overloaded",
  "rate_limited",
  "api_error",
  "connection",
]);
/** The longest single wait, whatever the backoff says (a retry-after may ask for more). */
const MAX_DELAY_MS = 5 * 60_000;
export const DEFAULT_RETRY_BASE_MS = 5_000;
export const DEFAULT_RETRY_GIVE_UP_MS = 60 * 60_000;

/** True for a failure that may pass with time (overload, rate limit, 5xx, a lost connection). */
export function passesWithTime(error: unknown): boolean {
  return error instanceof ModelError && RETRYABLE.has(error.code);
}

/** The wait before attempt `attempt` (1-based): base·2^(attempt−1), capped, never under retry-after. */
export function backoffDelay(attempt: number, baseMs: number, retryAfterMs: number | null): number {
  const exponential = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.max(exponential, retryAfterMs ?? 0);
}

/**
 * Handles a failed model call. A passing failure schedules the retry (and says so) and returns
 * "waiting"; past the give-up time, or for a failure that will not pass, the turn fails.
 * `turn` is the record as it was before the call (the failed attempt is not an iteration).
 */
export function onModelFailure(
  deps: Pick<
    AgentDeps,
    "clock" | "deadlines" | "events" | "frames" | "results" | "settings" | "transcript" | "turn"
  >,
  turn: TurnRecord,
  error: unknown,
  hadOutput: boolean,
): "waiting" | "failed" {
  const code = error instanceof ModelError ? error.code : "internal";
  const message = error instanceof Error ? error.message : String(error);
  const now = deps.clock.now();
  if (!(error instanceof ModelError) || !passesWithTime(error)) {
    failTurn(
      deps,
      { ...turn, callInFlight: false },
      `model_${code}`,
      message,
      `The model call failed: ${message}`,
    );
    return "failed";
  }
  const since = turn.retry?.since ?? now;
  const attempt = (turn.retry?.attempt ?? 0) + 1;
  const delay = backoffDelay(
    attempt,
    deps.settings.modelRetryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    error.retryAfterMs,
  );
  const giveUpMs = deps.settings.modelRetryGiveUpMs ?? DEFAULT_RETRY_GIVE_UP_MS;
  if (now + delay - since > giveUpMs) {
    const minutes = Math.round((now - since) / 60_000);
    const text = `The model stayed unavailable (${code}: ${message}) for ${minutes} minute(s) over ${attempt} attempts; giving up. Send the message again to retry.`;
    failTurn(deps, { ...turn, callInFlight: false }, "model_unavailable", text);
    return "failed";
  }
  // Devices drop the failed call's partial output, as after any lost call.
  if (hadOutput) {
    deps.events.append("turn_restarted", {
      turnId: turn.id,
      reason: `The model call failed mid-reply (${code}).`,
    });
  }
  const retry: ModelRetry = { attempt, since, at: now + delay, code, message };
  deps.turn.save({ ...turn, callInFlight: false, retry });
  deps.events.append("model_retry", { turnId: turn.id, attempt, retryAt: retry.at, code, message });
  deps.deadlines.setWatchdog(retry.at);
  return "waiting";
}

/** "Retry now": the waiting turn's retry becomes due at once. False when no retry is waiting. */
export function retryNow(deps: Pick<AgentDeps, "clock" | "turn">): boolean {
  const turn = deps.turn.current();
  if (!turn?.retry) return false;
  deps.turn.save({ ...turn, retry: { ...turn.retry, at: deps.clock.now() } });
  return true;
}

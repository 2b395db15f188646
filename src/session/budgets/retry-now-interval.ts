// "Retry now" calls the model at once, skipping the backoff: a session accepts it at most once per
// RETRY_NOW_MIN_INTERVAL_MS, whichever device or route sends it, so it cannot hammer the model API.
import * as z from "zod";
import { logSecurityEvent, type SecurityFields } from "../../log/security-log";
import type { MetaStore } from "../../objects/meta-store";
import { Refusal } from "../../objects/refusal";
import { RETRY_NOW_MIN_INTERVAL_MS } from "../../protocol/limits";

const LAST_RETRY_NOW = "retry_now_at";

/** Refuses a `retry_now` sent within the minimum interval of the last accepted one. */
export function refuseEarlyRetryNow(meta: MetaStore, now: number, logIds: SecurityFields): void {
  const last = meta.get(LAST_RETRY_NOW, z.number());
  if (last === null || now - last >= RETRY_NOW_MIN_INTERVAL_MS) return;
  logSecurityEvent("rate_limited", { ...logIds, reason: "retry_now_interval" });
  const retryAfterSeconds = Math.max(1, Math.ceil((last + RETRY_NOW_MIN_INTERVAL_MS - now) / 1000));
  throw Refusal.from({
    code: "rate_limited",
    message: `retry_now was used ${Math.floor((now - last) / 1000)} s ago; it may be used once every ${RETRY_NOW_MIN_INTERVAL_MS / 1000} s (retry in ${retryAfterSeconds} s)`,
    retryAfterSeconds,
  });
}

/** Starts the interval at an accepted `retry_now`. */
export function recordRetryNow(meta: MetaStore, now: number): void {
  meta.set(LAST_RETRY_NOW, now);
}

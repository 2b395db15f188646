// What every long-poll of a bridge shares: how long the server holds a read, when a read it should
// have answered is given up, and the wait between failed reads that an abort cuts short.

/** Longest the server holds one read (it allows at most 60 s). */
export const READ_WAIT_SECONDS = 50;
/** A read the server should have answered by now (a half-open connection) is given up and made again. */
export const READ_GRACE_MS = 15_000;

/** Waits `ms`, or less if the signal aborts first; never rejects. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

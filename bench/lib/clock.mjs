// The client's clock, comparable with the server's `at` stamps because both run on this machine.

/** Milliseconds since the epoch with sub-millisecond resolution. */
export function now() {
  return performance.timeOrigin + performance.now();
}

/** @param {number} ms */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Rejects with `message` unless `promise` settles within `ms`; every wait in the benchmark is bounded.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} message
 * @returns {Promise<T>}
 */
export function withTimeout(promise, ms, message) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} (no answer within ${ms} ms)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

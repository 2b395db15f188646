// Small JSON-over-HTTP helpers with bounded waits and errors that say what the server answered.

/**
 * @param {string} url
 * @param {{ method?: string, body?: unknown, headers?: Record<string, string>, timeoutMs?: number }} [options]
 * @returns {Promise<any>}
 */
export async function requestJson(url, { method = "GET", body, headers = {}, timeoutMs = 30_000 } = {}) {
  /** @type {RequestInit} */
  const init = { method, headers: { ...headers }, signal: AbortSignal.timeout(timeoutMs) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...headers, "content-type": "application/json" };
  }
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) {
    const path = new URL(url).pathname;
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${method} ${new URL(url).pathname} answered non-JSON: ${text.slice(0, 200)}`);
  }
}

/**
 * Runs `task` for every item with at most `limit` in flight; rejects on the first failure.
 * @template T, R
 * @param {T[]} items
 * @param {number} limit
 * @param {(item: T, index: number) => Promise<R>} task
 * @returns {Promise<R[]>}
 */
export async function mapLimit(items, limit, task) {
  /** @type {R[]} */
  const results = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(/** @type {T} */ (items[index]), index);
    }
  });
  await Promise.all(workers);
  return results;
}

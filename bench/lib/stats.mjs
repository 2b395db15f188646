// Summary statistics for latency samples and repeated runs.

/**
 * Nearest-rank percentile of unsorted samples.
 * @param {ArrayLike<number>} samples
 * @param {number} p between 0 and 100
 */
export function percentile(samples, p) {
  if (samples.length === 0) throw new Error("percentile of no samples");
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return /** @type {number} */ (sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]);
}

/** @param {number[]} values */
export function median(values) {
  return percentile(values, 50);
}

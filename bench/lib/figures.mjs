// A figure is one row of the results table: Parley's value per repeat, the baseline's value per
// repeat when there is a comparable one, and the target it is judged against.

/**
 * @typedef {{ ratioAtMost: number, belowAgents?: boolean } | { ratioAtLeast: number } | { atMost: number } | { below: number } | { equals: number }} Target
 * @typedef {object} Figure
 * @property {string} scenario
 * @property {string} label
 * @property {string} unit            "ms", "events/s", "rows", "yes/no", …
 * @property {number[]} parley        one value per repeat
 * @property {number[] | null} bare   one value per repeat, or null when the baseline has no such figure
 * @property {number[] | null} [agents] the agents SDK peer's values (`--peers`), when it has the figure
 * @property {Target | null} target
 * @property {"median" | "worst"} aggregate  "worst" for yes/no and error counts: one bad repeat decides
 * @property {"lower" | "higher"} better
 * @property {string} [note]
 */

/**
 * @param {Omit<Figure, "aggregate" | "better" | "target" | "bare"> & Partial<Figure>} figure
 * @returns {Figure}
 */
export function figure(figure) {
  return { bare: null, agents: null, target: null, aggregate: "median", better: "lower", ...figure };
}

/**
 * Runs `bareRun` and `parleyRun` alternately `repeats` times after one unrecorded warm-up of each, so
 * both see the same machine drift; returns the per-repeat results.
 * @template B, P
 * @param {number} repeats
 * @param {(() => Promise<B>) | null} bareRun
 * @param {() => Promise<P>} parleyRun
 * @param {{ warmUp?: boolean }} [options]
 * @returns {Promise<{ bare: B[], parley: P[] }>}
 */
export async function alternate(repeats, bareRun, parleyRun, { warmUp = true } = {}) {
  if (warmUp) {
    if (bareRun) await bareRun();
    await parleyRun();
  }
  /** @type {B[]} */ const bare = [];
  /** @type {P[]} */ const parley = [];
  for (let i = 0; i < repeats; i++) {
    if (bareRun) bare.push(await bareRun());
    parley.push(await parleyRun());
  }
  return { bare, parley };
}

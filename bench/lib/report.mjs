// Turns figures into the Markdown results table (figure, value, baseline, ratio, target, pass/fail)
// with a header that names the machine and the parameters of the run.
import { cpus, freemem, release, totalmem, type } from "node:os";
import { median } from "./stats.mjs";

/** @typedef {import("./figures.mjs").Figure} Figure */

/**
 * @param {number[]} values
 * @param {Figure} figure
 */
function aggregate(values, figure) {
  if (figure.aggregate === "median") return median(values);
  return figure.better === "higher" ? Math.min(...values) : Math.max(...values);
}

/**
 * @param {number} value
 * @param {string} unit
 */
export function formatValue(value, unit) {
  if (unit === "yes/no") return value === 1 ? "yes" : "no";
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  const text = value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit === "count" || unit === "yes/no" ? text : `${text} ${unit}`;
}

/** @param {import("./figures.mjs").Target | null} target @param {string} unit */
function describeTarget(target, unit) {
  if (!target) return "—";
  if ("ratioAtMost" in target)
    return `≤ ${target.ratioAtMost}× baseline${target.belowAgents ? ", < agents" : ""}`;
  if ("ratioAtLeast" in target) return `≥ ${target.ratioAtLeast}× baseline`;
  if ("atMost" in target) return `≤ ${formatValue(target.atMost, unit)}`;
  if ("below" in target) return `< ${formatValue(target.below, unit)}`;
  return formatValue(target.equals, unit);
}

/**
 * @param {import("./figures.mjs").Target | null} target
 * @param {number} value
 * @param {number | null} ratio
 * @param {number | null} agentsRatio
 * @returns {boolean | null}
 */
function judge(target, value, ratio, agentsRatio) {
  if (!target) return null;
  if ("ratioAtMost" in target) {
    const belowAgents = !target.belowAgents || agentsRatio === null || agentsRatio < 1;
    return ratio !== null && ratio <= target.ratioAtMost && belowAgents;
  }
  if ("ratioAtLeast" in target) return ratio !== null && ratio >= target.ratioAtLeast;
  if ("atMost" in target) return value <= target.atMost;
  if ("below" in target) return value < target.below;
  return value === target.equals;
}

/**
 * @typedef {object} Row
 * @property {Figure} figure
 * @property {number} value
 * @property {number | null} baseline
 * @property {number | null} ratio
 * @property {number | null} agents   the agents peer's value (`--peers`)
 * @property {number | null} agentsRatio Parley ÷ agents
 * @property {boolean | null} pass
 */

/**
 * @param {Figure[]} figures
 * @returns {Row[]}
 */
export function toRows(figures) {
  return figures.map((figure) => {
    if (figure.parley.length === 0) throw new Error(`figure "${figure.label}" has no measured value`);
    const value = aggregate(figure.parley, figure);
    const baseline = figure.bare && figure.bare.length > 0 ? aggregate(figure.bare, figure) : null;
    const ratio = baseline !== null && baseline !== 0 && figure.unit !== "yes/no" ? value / baseline : null;
    const agents = figure.agents && figure.agents.length > 0 ? aggregate(figure.agents, figure) : null;
    const agentsRatio = agents !== null && agents !== 0 && figure.unit !== "yes/no" ? value / agents : null;
    for (const number of [value, baseline ?? 0, ratio ?? 0, agents ?? 0, agentsRatio ?? 0]) {
      if (!Number.isFinite(number)) throw new Error(`figure "${figure.label}" is not a finite number`);
    }
    const pass = judge(figure.target, value, ratio, agentsRatio);
    return { figure, value, baseline, ratio, agents, agentsRatio, pass };
  });
}

/**
 * @param {Row[]} rows
 */
export function markdownTable(rows) {
  const lines = [
    "| scenario | figure | Parley | baseline | ratio | agents SDK | ÷ agents | target | result |",
    "|---|---|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const { figure, value, baseline, ratio, agents, agentsRatio, pass } of rows) {
    const cells = [
      figure.scenario,
      figure.label,
      formatValue(value, figure.unit),
      baseline === null ? "—" : formatValue(baseline, figure.unit),
      ratio === null ? "—" : `${ratio.toFixed(2)}×`,
      agents === null ? "—" : formatValue(agents, figure.unit),
      agentsRatio === null ? "—" : `${agentsRatio.toFixed(2)}×`,
      describeTarget(figure.target, figure.unit),
      pass === null ? "" : pass ? "pass" : "**FAIL**",
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

/** @param {{ wranglerVersion: string }} info */
export function machineLine({ wranglerVersion }) {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  const gib = (bytes) => `${(bytes / 2 ** 30).toFixed(0)} GiB`;
  return (
    `${cpus().length} × ${cpu}, ${gib(totalmem())} RAM (${gib(freemem())} free at start), ` +
    `${type()} ${release()}, Node ${process.versions.node}, wrangler ${wranglerVersion}`
  );
}

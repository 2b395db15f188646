// Part of `npm run check`: refuses real-time sleeps in the tests outside test/e2e. Unit and worker
// tests move an injected clock, run the alarm, or wait for a signal; a sleep only guesses.
// A line may opt out with a comment on the line above it: `// sleep-check: allow — <why>`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";

const ROOT = "test";
// Browser tests wait for a real browser; the build's own tests hold sleeps as data to check this check.
const SKIP = new Set([path.join(ROOT, "e2e"), path.join(ROOT, "build")]);
const ALLOW = /\/\/ sleep-check: allow — \S/;
// A timer whose callback is the resolver of a promise is a sleep; zero delay only yields a turn.
const SLEEPS = [
  {
    pattern: /setTimeout\(\s*(?:resolve|res|r|wake|done)\s*,(?!\s*0\s*\))/,
    what: "a timer that resolves a wait",
  },
  { pattern: /\bsleep\(/, what: "sleep()" },
  { pattern: /\bscheduler\.wait\(/, what: "scheduler.wait()" },
  { pattern: /\bsetTimeout as \w+\b|from "node:timers\/promises"/, what: "timers/promises" },
];

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(full)) yield* sourceFiles(full);
    } else if (/\.(?:[cm]?[jt]s)$/.test(entry.name)) yield full;
  }
}

/** Every sleep in `text`, as `file:line: what`, skipping lines that carry an allowance above them. */
export function findSleeps(file, text) {
  const lines = text.split("\n");
  const found = [];
  lines.forEach((line, index) => {
    if (line.trimStart().startsWith("//")) return;
    for (const { pattern, what } of SLEEPS) {
      if (pattern.test(line) && !ALLOW.test(lines[index - 1] ?? "")) {
        found.push(`${file}:${index + 1}: ${what}: ${line.trim()}`);
      }
    }
  });
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = [...sourceFiles(ROOT)].flatMap((file) => findSleeps(file, readFileSync(file, "utf8")));
  if (found.length > 0) {
    console.error(
      `Real-time sleeps in tests (move the object's clock with advanceClock, run the alarm with runDurableObjectAlarm, or wait for a signal):\n${found.join("\n")}`,
    );
    process.exit(1);
  }
}

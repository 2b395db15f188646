// Human wording for a length of time, as tool results and prompts say it ("10 minutes").

const UNITS = [
  { name: "hour", ms: 3_600_000 },
  { name: "minute", ms: 60_000 },
  { name: "second", ms: 1_000 },
] as const;

function count(value: number, unit: string): string {
  return `${value} ${unit}${value === 1 ? "" : "s"}`;
}

/**
 * Describes a duration in words: `600000` → `"10 minutes"`, `2000` → `"2 seconds"`,
 * `5400000` → `"1 hour and 30 minutes"`, `1500` → `"1.5 seconds"`, `250` → `"250 milliseconds"`.
 * Throws a `RangeError` for a negative or non-finite length (configuration validates timeouts first).
 */
export function describeDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`not a duration: ${ms}`);
  if (ms < 1_000) return count(Math.round(ms), "millisecond");
  const parts: string[] = [];
  let rest = ms;
  for (const unit of UNITS) {
    if (unit.name === "second") {
      // Sub-second remainders are kept (to the millisecond) so a 1.5 s test timeout reads truthfully.
      const seconds = Math.round(rest) / 1_000;
      if (seconds > 0) parts.push(count(seconds, unit.name));
      break;
    }
    const whole = Math.floor(rest / unit.ms);
    if (whole > 0) parts.push(count(whole, unit.name));
    rest -= whole * unit.ms;
  }
  if (parts.length === 1) return parts[0]!;
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

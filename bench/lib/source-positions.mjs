// Names a bundled position by where it came from: reads a bundle's source map (version 3) so a CPU
// profile of the minified Worker speaks of src/… files and lines rather than index.js:463.
import { readFile } from "node:fs/promises";

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((char, i) => [char, i]));

/** The values of one mapping segment (base64 VLQ). */
function decodeSegment(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = DIGIT.get(char) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

/**
 * Loads `mapPath` and answers a lookup from a 0-based generated line and column to
 * "file:line" (1-based), or null where the map says nothing.
 * @param {string} mapPath
 * @returns {Promise<(line: number, column: number) => string | null>}
 */
export async function sourcePositions(mapPath) {
  const map = JSON.parse(await readFile(mapPath, "utf8"));
  const sources = map.sources.map((/** @type {string} */ path) =>
    path.replace(/^.*?(src|node_modules)\//, "$1/"),
  );
  /** Per generated line: flat [column, source, line] triples, by column. */
  const lines = [];
  let source = 0;
  let sourceLine = 0;
  for (const text of map.mappings.split(";")) {
    const segments = [];
    let column = 0;
    for (const segment of text.split(",")) {
      if (!segment) continue;
      const values = decodeSegment(segment);
      column += values[0];
      // Only the file and line are named; the source column (values[3]) is left unread.
      if (values.length < 4) continue;
      source += values[1];
      sourceLine += values[2];
      segments.push(column, source, sourceLine);
    }
    lines.push(segments);
  }
  return (line, column) => {
    const segments = lines[line];
    if (!segments || segments.length === 0) return null;
    // The last segment starting at or before `column` (binary search over the triples).
    let low = 0;
    let high = segments.length / 3 - 1;
    if (segments[0] > column) return null;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (segments[mid * 3] <= column) low = mid;
      else high = mid - 1;
    }
    return `${sources[segments[low * 3 + 1]]}:${segments[low * 3 + 2] + 1}`;
  };
}

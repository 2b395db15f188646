// What a file tool's call does: the paths it reads or writes, inside or outside the working
// folder, and whether they hold secrets or code that runs. The paths are the ones grants read.
import { pathsOf } from "../grants/tool-inputs";
import { type Finding, finding } from "./assessment";
import { type PathPlace, placeOf } from "./path-place";

const READERS: ReadonlySet<string> = new Set(["Read", "NotebookRead", "Grep", "Glob", "LS"]);
const WRITERS: ReadonlySet<string> = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit"]);

/** Whether `toolName` is a file tool this module reads. */
export function isFileTool(toolName: string): boolean {
  return READERS.has(toolName) || WRITERS.has(toolName);
}

/** The findings of a file tool's call. */
export function fileEffects(toolName: string, input: unknown, cwd: string | null): Finding[] {
  const paths = pathsOf(toolName, input, cwd);
  const writes = WRITERS.has(toolName);
  if (paths === null)
    return [finding("unread", "medium", `Parley cannot tell which files ${toolName} would reach`)];
  if (paths.length === 0) return [finding("unread", "medium", `${toolName} names no path Parley can read`)];
  // A Glob's second path is its pattern under the folder: the folder decides unless the pattern climbs out.
  return paths.map((path) => (writes ? writeFinding(placeOf(path, cwd)) : readFinding(placeOf(path, cwd))));
}

/** Reading a path: a secret is high, outside the working folder medium, inside low. */
export function readFinding(place: PathPlace): Finding {
  if (place.secret) return finding("secret", "high", `reads ${place.secret}: ${place.words}`);
  if (place.where === "inside") return finding("read", "low", `reads ${place.words}`);
  return finding("read", "medium", `reads ${place.words}`);
}

/** Writing a path: a secret, a file that runs code, or anywhere outside the working folder is high. */
export function writeFinding(place: PathPlace): Finding {
  if (place.secret) return finding("write", "high", `writes ${place.secret}: ${place.words}`);
  if (place.runsCode) return finding("write", "high", `writes ${place.runsCode}: ${place.words}`);
  if (place.where === "inside") return finding("write", "medium", `writes ${place.words}`);
  return finding("write", "high", `writes ${place.words}`);
}

/** Deleting a path: inside the working folder medium, the folder itself, outside or unknown high. */
export function deleteFinding(place: PathPlace, recursive: boolean): Finding {
  const what = recursive ? "deletes everything under" : "deletes";
  // `rm -rf .` or `rm -rf *` empties the working folder itself.
  const whole = /^(\.\/?|\.?\/?\*)$/.test(place.path ?? "");
  if (place.where === "inside" && !place.secret && !place.runsCode && !(recursive && whole))
    return finding("delete", "medium", `${what} ${place.words}`);
  return finding("delete", "high", `${what} ${place.words}`);
}

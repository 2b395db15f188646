// Finding the plan behind Claude Code's ExitPlanMode. Claude Code may call the permission prompt
// with an empty input and keep the plan in a file under its config directory (`plans/<slug>.md`),
// naming it as `planFilePath` in the session transcript; this reads the plan from there, or else
// from the newest plan file written since the run began.
import { readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const MAX_PLAN_BYTES = 200_000;

/** Claude Code's config directory: CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude");
}

async function readSmall(path: string): Promise<string | null> {
  try {
    const text = await readFile(path, "utf8");
    return text.slice(0, MAX_PLAN_BYTES);
  } catch {
    return null;
  }
}

/** The last `planFilePath` the transcript names (a JSONL file; the key may sit at any depth). */
async function planPathFromTranscript(transcriptPath: string): Promise<string | null> {
  const text = await readSmall(transcriptPath).catch(() => null);
  if (!text) return null;
  const matches = [...text.matchAll(/"planFilePath"\s*:\s*"((?:[^"\\]|\\.)+)"/g)];
  const last = matches.at(-1)?.[1];
  if (!last) return null;
  try {
    return JSON.parse(`"${last}"`) as string;
  } catch {
    return null;
  }
}

/** The newest `plans/*.md` in the config directory modified at or after `sinceMs`. */
async function newestPlanFile(configDir: string, sinceMs: number): Promise<string | null> {
  const dir = join(configDir, "plans");
  const names = await readdir(dir).catch(() => [] as string[]);
  let best: { path: string; mtime: number } | null = null;
  for (const name of names) {
    if (!name.endsWith(".md")) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || info.mtimeMs < sinceMs) continue;
    if (!best || info.mtimeMs > best.mtime) best = { path, mtime: info.mtimeMs };
  }
  return best?.path ?? null;
}

/** The plan's markdown, or null when neither the transcript nor the plans folder has it. */
export async function findPlan(options: {
  transcriptPath?: string | undefined;
  configDir?: string;
  sinceMs: number;
}): Promise<string | null> {
  if (options.transcriptPath) {
    const path = await planPathFromTranscript(options.transcriptPath);
    const text = path ? await readSmall(path) : null;
    if (text?.trim()) return text;
  }
  const newest = await newestPlanFile(options.configDir ?? claudeConfigDir(), options.sinceMs);
  const text = newest ? await readSmall(newest) : null;
  return text?.trim() ? text : null;
}

// Parley's own assessment of a call an approval card asks about: a level, one line of summary and
// the effects it read from the call itself. The agent's words about its call are never an input.
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";

export const ASSESSMENT_LEVELS = ["low", "medium", "high"] as const;
export const AssessmentLevel = lazySchema(() => z.enum(ASSESSMENT_LEVELS));
export type AssessmentLevel = z.infer<typeof AssessmentLevel>;

/** What a call does, in the kinds devices may key on. */
export const EFFECT_KINDS = [
  "read",
  "write",
  "delete",
  "secret",
  "network",
  "download-run",
  "privilege",
  "install",
  "git-rewrite",
  "git-push",
  "kill",
  "run",
  "mcp",
  "unread",
] as const;
export const EffectKind = lazySchema(() => z.enum(EFFECT_KINDS));
export type EffectKind = z.infer<typeof EffectKind>;

export const MAX_EFFECTS = 12;
const MAX_DETAIL_CHARS = 300;
export const MAX_SUMMARY_CHARS = 600;

export const Effect = lazySchema(() =>
  z.object({ kind: EffectKind, detail: z.string().max(MAX_DETAIL_CHARS) }),
);
export type Effect = z.infer<typeof Effect>;

export const Assessment = lazySchema(() =>
  z.object({
    level: AssessmentLevel,
    summary: z.string().min(1).max(MAX_SUMMARY_CHARS),
    effects: z.array(Effect).max(MAX_EFFECTS),
  }),
);
export type Assessment = z.infer<typeof Assessment>;

/** One effect as a reader finds it, with the level it alone would give the call. */
export interface Finding extends Effect {
  level: AssessmentLevel;
}

export function finding(kind: EffectKind, level: AssessmentLevel, detail: string): Finding {
  return {
    kind,
    level,
    detail: clip(detail, MAX_DETAIL_CHARS),
  };
}

/** The higher of two levels. */
export function higher(a: AssessmentLevel, b: AssessmentLevel): AssessmentLevel {
  return ASSESSMENT_LEVELS.indexOf(a) >= ASSESSMENT_LEVELS.indexOf(b) ? a : b;
}

/** `text` in at most `max` UTF-16 units, cut with "…" and never inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

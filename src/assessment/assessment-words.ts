// The words every device shows for Parley's assessment — the page, the inbox, the terminal, chat
// and notifications — and a defensive read of it from a card's request. Zod-free, for the page.
import type { Assessment, AssessmentLevel } from "./assessment";

export const LEVEL_WORDS: Readonly<Record<AssessmentLevel, string>> = {
  low: "Low risk",
  medium: "Medium risk",
  high: "High risk",
};

/** "High risk: Deletes …" — the level first for a high call; after the summary for the others. */
export function assessmentLine(assessment: Pick<Assessment, "level" | "summary">): string {
  if (assessment.level === "high") return `${LEVEL_WORDS.high}: ${assessment.summary}`;
  return `${assessment.summary} (${LEVEL_WORDS[assessment.level].toLowerCase()})`;
}

/** The assessment a card's request carries; null when it has none (or not one Parley wrote). */
export function assessmentOf(request: unknown): Assessment | null {
  const found =
    typeof request === "object" && request !== null ? (request as { assessment?: unknown }).assessment : null;
  if (typeof found !== "object" || found === null) return null;
  const { level, summary, effects } = found as Record<string, unknown>;
  if (level !== "low" && level !== "medium" && level !== "high") return null;
  if (typeof summary !== "string" || !Array.isArray(effects)) return null;
  const shown = effects.filter(
    (effect): effect is Assessment["effects"][number] =>
      typeof effect === "object" &&
      effect !== null &&
      typeof effect.kind === "string" &&
      typeof effect.detail === "string",
  );
  return { level, summary, effects: shown };
}

/** Whether a card asks about a call Parley assessed as high: no quick approval (notification, "Approve all"). */
export function isHighRisk(request: unknown): boolean {
  return assessmentOf(request)?.level === "high";
}

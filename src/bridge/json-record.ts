// What a bridge reads from an agent's or a card's JSON before trusting a field: an object, or null.

/** `value` as an object with string keys, or null for anything else (arrays included). */
export function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

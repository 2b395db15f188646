// What a chat message of a card offers, per kind: the request in a few lines, the choices as
// buttons (short codes only) and the answer each code stands for. Zod-free, so a chat channel (and
// later the page or the terminal) reads it without loading the kinds' schemas.

export interface ChatChoice {
  /** Short and stable: it travels in a button's data. */
  code: string;
  label: string;
  style?: "primary" | "danger";
}

export interface ChatView {
  /** The request in words beyond the kind's summary line; null when the line says it all. */
  detail(request: unknown): string | null;
  /** The choices a chat can offer; empty when the card must be answered in Parley. */
  choices(request: unknown): ChatChoice[];
  /** The kind's response for a code `choices` offered; null for any other. */
  response(request: unknown, code: string): unknown;
  /** What a deadline that passed meant for this kind, after "Timed out — " ("denied"); else "no answer". */
  timedOut?: string;
}

/** Longest option label put on a button; longer ones are shortened with "…". */
export const MAX_CHOICE_LABEL = 40;

export function shortLabel(label: string): string {
  return label.length > MAX_CHOICE_LABEL ? `${label.slice(0, MAX_CHOICE_LABEL - 1)}…` : label;
}

/** A view whose choices each answer with a fixed response. */
export function fixedChoices(
  choices: readonly (ChatChoice & { response: unknown })[],
  detail: (request: unknown) => string | null,
): ChatView {
  return {
    detail,
    choices: () => choices.map(({ response: _response, ...choice }) => choice),
    response: (_request, code) => choices.find((choice) => choice.code === code)?.response ?? null,
  };
}

export function field(request: unknown, name: string): unknown {
  return typeof request === "object" && request !== null
    ? (request as Record<string, unknown>)[name]
    : undefined;
}

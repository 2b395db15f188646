// What a chat message of a card offers, per kind: the request in a few lines, the choices as
// buttons (short codes only) and what each press does — answer the card, or gather one more part
// of the answer (several questions in turn, toggles). Zod-free, so a chat channel reads it without
// loading the kinds' schemas.

export interface ChatChoice {
  /** Short and stable: it travels in a button's data. */
  code: string;
  label: string;
  style?: "primary" | "danger";
  /** The choice needs text from the person (a reason, an "Other" answer, feedback), asked for in the platform's own way. */
  needsText?: { prompt: string; label: string };
}

/** A text input of a card a platform can answer in a modal of its own (a form that fits one). */
export interface ModalField {
  name: string;
  label: string;
  type: "string" | "number" | "integer";
  required: boolean;
  description: string | null;
  minLength: number | null;
  maxLength: number | null;
  value: string | null;
}

/** What one press does: answers the card, or keeps what it gathered and shows the message again. */
export type ChatPress = { response: unknown } | { progress: unknown };

export interface ChatView {
  /** The request in words beyond the kind's summary line, as far as `progress` got; null when the line says it all. */
  detail(request: unknown, progress: unknown): string | null;
  /** The choices a chat can offer now; empty when the card must be answered in Parley. */
  choices(request: unknown, progress: unknown): ChatChoice[];
  /** What a press of a code `choices` offered does (with the text it asked for); null for any other. */
  press(request: unknown, progress: unknown, code: string, text: string | null): ChatPress | null;
  /** A page the card is about, shown as a link button. */
  link?(request: unknown): { label: string; url: string } | null;
  /** What a deadline that passed meant for this kind, after "Timed out — " ("denied"); else "no answer". */
  timedOut?: string;
  /** The card's inputs when it can be answered in a modal of at most `max` text inputs; else null. */
  modalFields?(request: unknown, max: number): ModalField[] | null;
  /** The kind's response for the texts written in that modal, by field name. */
  modalResponse?(request: unknown, fields: ModalField[], texts: Record<string, string>): unknown;
}

/** Longest option label put on a button; longer ones are shortened with "…". */
export const MAX_CHOICE_LABEL = 40;

export function shortLabel(label: string): string {
  return label.length > MAX_CHOICE_LABEL ? `${label.slice(0, MAX_CHOICE_LABEL - 1)}…` : label;
}

/** A choice whose response is fixed, or built from the text it asked for. */
export type FixedChoice = ChatChoice & { response: unknown | ((text: string) => unknown) };

/** A view whose choices each answer at once. */
export function fixedChoices(
  choices: readonly FixedChoice[],
  detail: (request: unknown) => string | null,
): ChatView {
  return {
    detail,
    choices: () => choices.map(({ response: _response, ...choice }) => choice),
    press(_request, _progress, code, text) {
      const choice = choices.find((c) => c.code === code);
      if (!choice) return null;
      if (typeof choice.response !== "function") return { response: choice.response };
      const given = text?.trim();
      return given ? { response: (choice.response as (text: string) => unknown)(given) } : null;
    },
  };
}

export function field(request: unknown, name: string): unknown {
  return typeof request === "object" && request !== null
    ? (request as Record<string, unknown>)[name]
    : undefined;
}

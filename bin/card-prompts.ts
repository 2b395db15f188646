// Which terminal prompt answers which interaction kind, like the page's renderers: a new kind adds
// its prompt file and one line here. Kinds without one point to the browser. Pure: text in, text out.
import { approvalPrompt } from "./approval-prompt";
import type { Card, CardPrompt, TerminalPrompt } from "./card-prompt";
import { formPrompt } from "./form-prompt";
import { planPrompt } from "./plan-prompt";
import { questionPrompt } from "./question-prompt";
import { urlPrompt } from "./url-prompt";

export type { Card, CardPrompt, Reply, TerminalPrompt } from "./card-prompt";

export const TERMINAL_PROMPTS: Readonly<Record<string, TerminalPrompt>> = {
  question: questionPrompt,
  approval: approvalPrompt,
  form: formPrompt,
  plan: planPrompt,
  url: urlPrompt,
};

/** A prompt for a card, or `null` for a kind the terminal cannot answer (the browser can). */
export function promptFor(
  card: Card,
  prompts: Readonly<Record<string, TerminalPrompt>> = TERMINAL_PROMPTS,
): CardPrompt | null {
  return Object.hasOwn(prompts, card.kind) ? (prompts[card.kind]?.(card) ?? null) : null;
}

// Text cut to what a platform's field holds (a button label, a modal title, a message), and the
// first sentence of a prompt whose rest says how another platform asks for the text.

/** `text`, cut with "…" when it is longer than `max` characters. */
export function short(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The question's first sentence: a prompt may go on with how another platform asks for the text. */
export function firstSentence(prompt: string): string {
  return /^[^?.!]*[?.!]?/.exec(prompt)?.[0].trim() || prompt;
}

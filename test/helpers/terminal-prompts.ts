// Drives a terminal card prompt (bin/card-prompts.ts) as a person typing: the start, then one
// reply per line typed.
import { type Card, promptFor, type Reply } from "../../bin/card-prompts";

/** The prompt's replies: its start, then one per line in `lines`. */
export function run(card: Card, lines: string[]): Reply[] {
  const prompt = promptFor(card);
  if (!prompt) throw new Error("no prompt");
  return [prompt.start(), ...lines.map((line) => prompt.input(line))];
}

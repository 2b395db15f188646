// How an interaction's outcome is said to a person: the page's receipts, the terminal and
// notification titles all use these words.
import type { InteractionOutcome } from "./session";

export const OUTCOME_WORDS: Readonly<Record<InteractionOutcome, string>> = {
  answered: "Answered",
  approved: "Approved",
  denied: "Denied",
  timed_out: "Timed out",
  cancelled: "Cancelled",
};

// The toy rating kind's terminal prompt (docs/interactive-tools.md): it asks for a number of
// stars and answers with the generic `respond`.
import type { Card, Reply, TerminalPrompt } from "../../../../bin/card-prompt";
import type { RatingRequest } from "../../interactions/toy-kind/rating";

export const ratingPrompt: TerminalPrompt = (card: Card) => {
  const { subject } = card.request as RatingRequest;
  const ask = (lines: string[]): Reply => ({ kind: "ask", lines, prompt: "stars› " });
  return {
    start: () => ask([`★ Rate ${subject} from 1 to 5 stars`]),
    input(line) {
      const stars = Number(line.trim());
      if (!Number.isInteger(stars) || stars < 1 || stars > 5) return ask(["Type a number from 1 to 5."]);
      const interactionId = card.interactionId ?? card.toolCallId;
      return { kind: "send", command: { type: "respond", interactionId, response: { stars } } };
    },
  };
};

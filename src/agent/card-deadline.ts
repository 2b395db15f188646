// A new card's deadline: its policy's (deny, cancel, or keep waiting up to a maximum) when the host
// has policies, else its timeout; the terms travel in the prompt event so every device shows them.
import type { CardDeadlineTerms } from "../protocol/cards/deadline-policy";
import type { AgentDeps } from "./agent-deps";

export function cardDeadline(
  deps: Pick<AgentDeps, "cardDeadlines">,
  card: { id: string; kind: string; toolName: string; createdAt: number; timeoutMs: number },
): { expiresAt: number; deadlinePolicy?: CardDeadlineTerms } {
  if (!deps.cardDeadlines) return { expiresAt: card.createdAt + card.timeoutMs };
  const { expiresAt, terms } = deps.cardDeadlines.open(card);
  return { expiresAt, deadlinePolicy: terms };
}

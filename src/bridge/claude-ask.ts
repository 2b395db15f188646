// One Claude Code permission request asked through Parley, by any bridge: the card for the call,
// keyed by Claude Code's tool_use_id, the one wait, and the person's answer as Claude Code's
// decision. The line says how this bridge reaches its session.
import { cardKey } from "./card-key";
import { type CardLine, type KeyedCard, waitForCard } from "./card-wait";
import { type ClaudeCard, cardFor } from "./claude-card";
import { decisionFor, type PermissionDecision } from "./claude-decision";

export interface ClaudeAsk {
  toolName: string;
  input: Record<string, unknown>;
  /** Claude Code's tool_use_id: the card's key. */
  toolUseId?: string | undefined;
  /** For ExitPlanMode: the plan found outside the input, if any. */
  plan?: string | null | undefined;
  /** The host's own one-line description of the request, if it gives one. */
  summary?: string | undefined;
  /** Claude Code's "always allow" suggestions, offered on the card as a Parley grant's rule. */
  suggestions?: unknown[] | undefined;
  /** Aborting withdraws the card on every device (where the line can withdraw). */
  signal?: AbortSignal | undefined;
  /** Claude Code's working folder as the host reports it (never the tool's input): an absolute path. */
  cwd?: string | undefined;
}

/** Asks the person and resolves with Claude Code's decision. */
export async function askClaude(
  line: CardLine<ClaudeCard & KeyedCard>,
  ask: ClaudeAsk,
): Promise<PermissionDecision> {
  const card = cardFor(ask.toolName, ask.input, ask.plan, ask.summary, ask.suggestions);
  const keyed = { ...card, key: cardKey(ask.toolUseId), ...(ask.cwd ? { cwd: ask.cwd } : {}) };
  const state = await waitForCard(line, keyed, { signal: ask.signal });
  return decisionFor(ask.input, state);
}

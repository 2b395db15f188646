// An ExternalAgent as the line a local bridge waits on (src/bridge/card-wait.ts): opening retries
// while Parley is out of reach, the wait long-polls the card across dropped reads and restarts, and
// an abandoned card is withdrawn on every device.
import type { CardLine } from "../src/bridge/card-wait";
import type { ExternalAgent, ExternalKind } from "./external-agent";

export interface AgentReach {
  /** How long Parley may stay out of reach while the card is opened (and, by default, while waiting). */
  unreachableMs: number;
  /** How long Parley may stay out of reach once the card is open (a restart, a redeploy). */
  waitUnreachableMs?: number | undefined;
}

/** The line through `agent`'s session. */
export function agentLine(
  agent: ExternalAgent,
  reach: AgentReach,
): CardLine<{ kind: ExternalKind; request: unknown; key: string; cwd?: string }> {
  return {
    open: (card, signal) => agent.openInteraction(card, Date.now() + reach.unreachableMs, signal),
    wait: (interactionId, signal) =>
      agent.waitForResolution(interactionId, signal, reach.waitUnreachableMs ?? reach.unreachableMs),
    withdraw: (interactionId) => agent.withdraw(interactionId),
  };
}

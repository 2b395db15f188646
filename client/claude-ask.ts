// One Claude Code permission request asked through Parley: open the card (the tool_use_id as its
// key, so a repeated call re-attaches to the same card), wait for it however long it takes, and
// answer with Claude Code's decision. An aborted signal withdraws the card on every device.
import { cardFor, decisionFor, type PermissionDecision } from "./claude-permissions";
import type { ExternalAgent } from "./external-agent";

export interface PermissionAsk {
  toolName: string;
  input: Record<string, unknown>;
  /** Claude Code's tool_use_id: the card's key. */
  toolUseId?: string | undefined;
  /** For ExitPlanMode: the plan found outside the input, if any. */
  plan?: string | null;
  /** The host's own one-line description of the request, if it gives one. */
  summary?: string | undefined;
  /** The SDK's "always allow" suggestions, returned when the person asks to remember. */
  suggestions?: unknown[] | undefined;
  signal?: AbortSignal | undefined;
  /** How long Parley may stay out of reach while the card is opened (and, by default, while waiting). */
  unreachableMs: number;
  /** How long Parley may stay out of reach once the card is open (a restart, a redeploy). */
  waitUnreachableMs?: number;
}

export async function askThroughParley(
  agent: ExternalAgent,
  ask: PermissionAsk,
): Promise<PermissionDecision> {
  const card = cardFor(ask.toolName, ask.input, ask.plan, ask.summary, ask.suggestions);
  // Without Claude Code's id, a key of this request's own still makes a retried open (the answer
  // to the first attempt lost in a restart) find the same card rather than open a second one.
  const key = (ask.toolUseId || `ask-${crypto.randomUUID()}`).slice(0, 200);
  const opened = await agent.openInteraction({ ...card, key }, Date.now() + ask.unreachableMs, ask.signal);
  const withdraw = () => void agent.withdraw(opened.interactionId).catch(() => {});
  ask.signal?.addEventListener("abort", withdraw, { once: true });
  try {
    const state = await agent.waitForResolution(
      opened.interactionId,
      ask.signal,
      ask.waitUnreachableMs ?? ask.unreachableMs,
    );
    return decisionFor(ask.input, state, ask.suggestions);
  } finally {
    ask.signal?.removeEventListener("abort", withdraw);
  }
}

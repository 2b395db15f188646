// The one way a bridge turns an agent's own id into a Parley key (a session's or a card's), so a
// bridge that crashed, reconnected or retried finds the same session and the same card again.
import { MAX_EXTERNAL_KEY_CHARS } from "../protocol/limits";

/** An agent's id as a Parley key: printable ASCII without spaces, at most 200 characters. */
export function externalKey(id: string): string {
  return id.replace(/[^\x21-\x7e]/g, "_").slice(0, MAX_EXTERNAL_KEY_CHARS) || "_";
}

/**
 * The key of one card: the agent's id for the call (Claude Code's tool_use_id), so a repeated call
 * re-attaches to its card. Without one, a key of this request's own still makes a retried open (the
 * answer to the first attempt lost in a restart) find the card it made rather than open a second.
 */
export function cardKey(callId: string | undefined): string {
  return callId ? externalKey(callId) : `ask-${crypto.randomUUID()}`;
}

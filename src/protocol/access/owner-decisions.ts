// Who may give an answer that reaches beyond its card, in a module without zod: the server enforces
// it (src/session/session-command.ts) and the page offers those choices by the same rule.

/**
 * Answers that change the session beyond one card ("Always allow", a grant for more than this
 * session, a plan approved for edits — each kind says which of its answers do, with its
 * `beyondCard`) are the owner's, like `set_permission_mode`: true when `role` may give an answer
 * that does (`reachesBeyondCard`) or does not.
 */
export function mayDecideBeyondCard(role: string, reachesBeyondCard: boolean): boolean {
  return role === "owner" || !reachesBeyondCard;
}

// Which answers only the owner may give, in a module without zod: the server enforces it
// (session-command.ts) and the page offers those choices by the same rule.
import { APPROVE } from "./seed-names";

/**
 * Answers that change the session's settings beyond one card — "Always allow" (`remember`), a
 * grant for more than this session, and a plan's `accept_edits`, which switches the permission
 * mode — are the owner's, like
 * `set_permission_mode`: true when `role` may send this command with this payload.
 */
export function mayDecideBeyondCard(
  role: string,
  command: { type: string; remember?: unknown; response?: unknown },
): boolean {
  if (role === "owner") return true;
  if (command.type === APPROVE && command.remember === true) return false;
  if (command.type !== "respond" || typeof command.response !== "object" || command.response === null)
    return true;
  const response = command.response as { remember?: unknown; choice?: unknown; grant?: unknown };
  // A grant from a card reaches beyond it; for one session it stays within what the link answers.
  const grant = response.grant as { scope?: unknown } | undefined;
  if (typeof grant === "object" && grant !== null && grant.scope !== "session") return false;
  return response.remember !== true && response.choice !== "accept_edits";
}

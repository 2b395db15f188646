// Answers that change the session beyond one card ("Always allow", a plan's `accept_edits`; each
// kind's view says which) the server takes from the owner only; the page offers them to the owner only.
import type { Role } from "../../../../src/protocol/access/access";
import { mayDecideBeyondCard } from "../../../../src/protocol/access/owner-decisions";

const ROLES: readonly string[] = ["owner", "answer", "view", "agent"] satisfies Role[];

/** Marks a button only the owner is offered; the stylesheet hides it on every other role's page. */
export const OWNER_CHOICE = "owner-choice";

/** The role of the page `el` is shown on (the root's `data-role`, from the server's hello). */
export function roleOfPage(el: Element): Role {
  const role = el.closest<HTMLElement>("[data-role]")?.dataset.role ?? "";
  // Before the hello says otherwise, offer the least.
  return ROLES.includes(role) ? (role as Role) : "view";
}

/**
 * Whether a page held by `role` may give an answer, by the server's own rule; `reachesBeyondCard`
 * is what the card's kind says of that answer.
 */
export function mayChoose(role: Role, reachesBeyondCard: boolean): boolean {
  return mayDecideBeyondCard(role, reachesBeyondCard);
}

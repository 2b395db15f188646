// Who decided a card, as the server knew it where the answer entered: set by the socket, the HTTP
// route, the inbox's actor, a grant, the deadline or a withdrawal, and stored with the resolution.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";

/** Where a grant or a decision was made from: the kind of device, never the id it gave itself. */
export const DeviceKind = lazySchema(() => z.enum(["page", "terminal", "bridge", "chat", "push", "api"]));
export type DeviceKind = z.infer<typeof DeviceKind>;

/**
 * The kinds of decider: a person (Access identity, the operator, `local`), a share or inbox link,
 * a linked chat account, a grant, the card's deadline, a deadline policy that cancels, the agent
 * withdrawing its own card, or the session itself (a turn that failed closes its cards).
 */
export const DeciderKind = lazySchema(() =>
  z.enum(["person", "link", "chat", "grant", "deadline", "policy", "withdrawal", "system"]),
);
export type DeciderKind = z.infer<typeof DeciderKind>;

export const Decider = lazySchema(() =>
  z.object({
    kind: DeciderKind,
    /** What the record shows: the person, the link's label and id, "Ana · Telegram", a grant's rule, an agent. */
    label: z.string().nullable(),
    /**
     * The stable id of who decided: the person's identity, the link's id, `<platform>:<account>`,
     * the grant's id; null for a deadline, a policy or the session.
     */
    id: z.string().nullable(),
    /** The kind of device the answer came from; null when nobody answered (a grant, a deadline). */
    device: DeviceKind.nullable(),
    /**
     * The person an answer counts as (docs/trust.md#trust-who-may-answer): the Access identity that
     * presented the credential, else the person it leads back to (the session's creator for its owner
     * token and share links, the inbox's person for an inbox link or a linked chat account). Null in a
     * session no person created; absent on records kept before answers named their person.
     */
    personId: z.string().nullable().optional(),
  }),
);
export type Decider = z.infer<typeof Decider>;

/** The kinds of decider that are somebody answering (and so count as one approval). */
export const ANSWERER_KINDS: ReadonlySet<DeciderKind> = new Set(["person", "link", "chat"]);

/** The name receipts show for who answered ("by …"): an answerer's label, else null. */
export function answererName(decider: Decider | null | undefined): string | null {
  return decider && ANSWERER_KINDS.has(decider.kind) ? decider.label : null;
}

/**
 * The key that tells approvers apart for a rule needing several approvals: the person an answer
 * counts as, however it came (page, terminal, inbox, a link, a chat account); null for a decider
 * that is nobody answering. An answer that names no person counts as `owner`, the session's
 * creator: records kept before answers named their person, whose credentials all led back to them
 * or to links they minted, and every credential of a session no person created (`owner` null).
 */
export function approverKey(decider: Decider, owner: string | null): string | null {
  if (!ANSWERER_KINDS.has(decider.kind)) return null;
  const person = decider.personId ?? owner;
  return person === null ? "owner" : `person:${person}`;
}

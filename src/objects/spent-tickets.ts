// Connection tickets the object has admitted, so each admits one connection only. Kept in one
// `meta` row until they expire (30 s), pruned on every use, each with the credential it was issued
// to: a credential with MAX_LIVE_TICKETS_PER_CREDENTIAL live ones is refused more until some
// expire, while every other credential keeps its own room.
import * as z from "zod";
import { MAX_LIVE_TICKETS_PER_CREDENTIAL } from "../protocol/limits";
import type { ErrorBody } from "../protocol/wire/errors";
import type { MetaStore } from "./meta-store";

/** Set by the Worker on a connection it admitted by ticket: `{ id, expiresAt }`. */
export const TICKET_HEADER = "x-parley-ticket";

/** The header the Worker forwards for a connection admitted by `ticket` (none without one). */
export function ticketHeader(ticket: { id: string; expiresAt: number } | undefined): Record<string, string> {
  return ticket ? { [TICKET_HEADER]: JSON.stringify({ id: ticket.id, expiresAt: ticket.expiresAt }) } : {};
}

// `tag` is the credential's socket tag; rows from before it was kept count as one credential's.
const Spent = z.array(z.object({ id: z.string(), expiresAt: z.number(), tag: z.string().default("") }));
const Stated = z.object({ id: z.string().max(64), expiresAt: z.number() });

export class SpentTickets {
  constructor(
    private readonly meta: MetaStore,
    private readonly now: () => number,
  ) {}

  /**
   * Spends the ticket the request was admitted with (if any) for credential `tag`; an error when it
   * was spent before, or when `tag` has spent its quota in the tickets' life.
   */
  spend(request: Request, tag: string): ErrorBody | null {
    const header = request.headers.get(TICKET_HEADER);
    if (header === null) return null;
    const stated = Stated.safeParse(safeJson(header));
    if (!stated.success) return { code: "forbidden", message: "Unreadable connection ticket" };
    const now = this.now();
    const live = (this.meta.get("spent_tickets", Spent) ?? []).filter((ticket) => ticket.expiresAt > now);
    if (live.some((ticket) => ticket.id === stated.data.id)) {
      return { code: "forbidden", message: "This connection ticket was already used; ask for a new one" };
    }
    if (live.filter((ticket) => ticket.tag === tag).length >= MAX_LIVE_TICKETS_PER_CREDENTIAL) {
      return {
        code: "rate_limited",
        message: "Too many connections opened with this credential in the last 30 seconds",
      };
    }
    this.meta.set("spent_tickets", [...live, { ...stated.data, tag }]);
    return null;
  }

  /** Spends a one-time code of its own kind (`tag` names it): false when it was spent before. */
  spendOnce(id: string, expiresAt: number, tag: string): boolean {
    const now = this.now();
    const live = (this.meta.get("spent_tickets", Spent) ?? []).filter((ticket) => ticket.expiresAt > now);
    if (live.some((ticket) => ticket.id === id && ticket.tag === tag)) return false;
    this.meta.set("spent_tickets", [...live, { id, expiresAt, tag }]);
    return true;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

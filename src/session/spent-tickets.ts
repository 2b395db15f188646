// Connection tickets the object has admitted, so each admits one connection only. Kept in one
// `meta` row until they expire (30 s), pruned on every use; a session with more live tickets than
// MAX_LIVE_TICKETS refuses new connections until some expire.
import * as z from "zod";
import type { ErrorBody } from "../protocol/errors";
import type { MetaStore } from "./meta-store";

/** Set by the Worker on a connection it admitted by ticket: `{ id, expiresAt }`. */
export const TICKET_HEADER = "x-parley-ticket";

const MAX_LIVE_TICKETS = 256;

/** The header the Worker forwards for a connection admitted by `ticket` (none without one). */
export function ticketHeader(ticket: { id: string; expiresAt: number } | undefined): Record<string, string> {
  return ticket ? { [TICKET_HEADER]: JSON.stringify({ id: ticket.id, expiresAt: ticket.expiresAt }) } : {};
}

const Spent = z.array(z.object({ id: z.string(), expiresAt: z.number() }));
const Stated = z.object({ id: z.string().max(64), expiresAt: z.number() });

export class SpentTickets {
  constructor(
    private readonly meta: MetaStore,
    private readonly now: () => number,
  ) {}

  /** Spends the ticket the request was admitted with (if any); an error when it was spent before. */
  spend(request: Request): ErrorBody | null {
    const header = request.headers.get(TICKET_HEADER);
    if (header === null) return null;
    const stated = Stated.safeParse(safeJson(header));
    if (!stated.success) return { code: "forbidden", message: "Unreadable connection ticket" };
    const now = this.now();
    const live = (this.meta.get("spent_tickets", Spent) ?? []).filter((ticket) => ticket.expiresAt > now);
    if (live.some((ticket) => ticket.id === stated.data.id)) {
      return { code: "forbidden", message: "This connection ticket was already used; ask for a new one" };
    }
    if (live.length >= MAX_LIVE_TICKETS) {
      return { code: "rate_limited", message: "Too many connections opened in the last 30 seconds" };
    }
    this.meta.set("spent_tickets", [...live, stated.data]);
    return null;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

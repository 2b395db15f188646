// The inbox links a person minted, as their Inbox object keeps them: recorded before the Worker
// signs one, listed, revoked, and checked on every use (the token itself proves role and expiry).
import { type InboxLinkView, MAX_INBOX_LINKS } from "../protocol/inbox/inbox-links";
import type { SqlCounter } from "../storage/sql-counter";

type Row = {
  link_id: string;
  role: string;
  label: string | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
};

function viewOf(row: Row): InboxLinkView {
  return {
    linkId: row.link_id,
    role: row.role as InboxLinkView["role"],
    label: row.label,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export class InboxLinks {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  /** Records a new link; null when the person already holds the most links allowed. */
  add(link: Pick<InboxLinkView, "linkId" | "role" | "label" | "expiresAt">): InboxLinkView | null {
    const count = this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM links`)?.n ?? 0;
    if (count >= MAX_INBOX_LINKS) return null;
    this.sql.run(
      ["links"],
      `INSERT INTO links (link_id, role, label, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, NULL)`,
      link.linkId,
      link.role,
      link.label,
      this.now(),
      link.expiresAt,
    );
    return this.get(link.linkId);
  }

  list(): InboxLinkView[] {
    return this.sql.all<Row>(`SELECT * FROM links ORDER BY created_at, link_id`).map(viewOf);
  }

  /** Marks a link revoked (idempotent); null when there is no such link. */
  revoke(linkId: string): InboxLinkView | null {
    this.sql.run(
      ["links"],
      `UPDATE links SET revoked_at = ? WHERE link_id = ? AND revoked_at IS NULL`,
      this.now(),
      linkId,
    );
    return this.get(linkId);
  }

  /** Records that the link opened session `sessionId` (so revoking the link reaches it). */
  noteOpened(linkId: string, sessionId: string): void {
    this.sql.run(
      ["link_sessions"],
      `INSERT INTO link_sessions (link_id, session_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
      linkId,
      sessionId,
    );
  }

  /** The sessions the link opened. */
  openedThrough(linkId: string): string[] {
    return this.sql
      .all<{ session_id: string }>(`SELECT session_id FROM link_sessions WHERE link_id = ?`, linkId)
      .map((row) => row.session_id);
  }

  /** True while the link exists, is not revoked and has not expired. */
  isLive(linkId: string): boolean {
    const link = this.get(linkId);
    return (
      link !== null && link.revokedAt === null && (link.expiresAt === null || link.expiresAt > this.now())
    );
  }

  /** The next expiry of a live link whose streams are still to be closed, or null. */
  nextExpiry(): number | null {
    return (
      this.sql.one<{ at: number | null }>(
        `SELECT MIN(expires_at) AS at FROM links
         WHERE revoked_at IS NULL AND expires_at IS NOT NULL AND expires_at > ?`,
        this.enforcedUntil(),
      )?.at ?? null
    );
  }

  /** Links that expired by `now` and whose streams were not closed yet; marks them done. */
  takeExpired(now: number): string[] {
    const expired = this.sql
      .all<{ link_id: string }>(
        `SELECT link_id FROM links WHERE revoked_at IS NULL AND expires_at > ? AND expires_at <= ?`,
        this.enforcedUntil(),
        now,
      )
      .map((row) => row.link_id);
    this.sql.run(
      ["meta"],
      `INSERT INTO meta (key, value) VALUES ('links_expired_until', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      String(now),
    );
    return expired;
  }

  private enforcedUntil(): number {
    const row = this.sql.one<{ value: string }>(`SELECT value FROM meta WHERE key = 'links_expired_until'`);
    return row ? Number(row.value) : 0;
  }

  private get(linkId: string): InboxLinkView | null {
    const row = this.sql.one<Row>(`SELECT * FROM links WHERE link_id = ?`, linkId);
    return row ? viewOf(row) : null;
  }
}

// What an ended chat link still owes other objects, as rows until each is done: its person's inbox
// must stop sending to it, and every session page a See all of it opened must be revoked. Tried at
// once and then on the channel object's alarm, never given up (each call is idempotent).

/** The waits between tries of one revocation; the last repeats until it succeeds. */
export const REVOCATION_RETRY_MS = [5_000, 30_000, 120_000, 600_000] as const;

const SCHEMA = `CREATE TABLE IF NOT EXISTS link_revocations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, person TEXT NOT NULL, link_id TEXT NOT NULL,
  session_id TEXT, page_link_id TEXT, attempts INTEGER NOT NULL, next_at INTEGER NOT NULL,
  last_error TEXT)`;

/** A session page a See all opened, by its share link. */
export interface SeeAllPage {
  sessionId: string;
  pageLinkId: string;
}

/** Where revocations go: the person's inbox and the pages' sessions. Each call throws when it did not happen. */
export interface RevocationTargets {
  removeChatLink(person: string, linkId: string): Promise<void>;
  revokePage(person: string, page: SeeAllPage): Promise<void>;
}

type RevocationRow = {
  id: number;
  person: string;
  link_id: string;
  session_id: string | null;
  page_link_id: string | null;
  attempts: number;
};

export class LinkRevocations {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
  ) {
    sql.exec(SCHEMA);
  }

  /** Records what ending `person`'s link `linkId` owes: its removal from their inbox and its pages. */
  add(person: string, linkId: string, pages: readonly SeeAllPage[]): void {
    const at = this.now();
    this.sql.exec(
      `INSERT INTO link_revocations (person, link_id, attempts, next_at) VALUES (?, ?, 0, ?)`,
      person,
      linkId,
      at,
    );
    for (const page of pages) {
      this.sql.exec(
        `INSERT INTO link_revocations (person, link_id, session_id, page_link_id, attempts, next_at)
         VALUES (?, ?, ?, ?, 0, ?)`,
        person,
        linkId,
        page.sessionId,
        page.pageLinkId,
        at,
      );
    }
  }

  nextDue(): number | null {
    return this.sql.exec<{ at: number | null }>(`SELECT MIN(next_at) AS at FROM link_revocations`).one().at;
  }

  /** Tries every revocation due at `now`: done ones go, the others wait for their next try. Never throws. */
  async deliverDue(now: number, targets: RevocationTargets): Promise<void> {
    const due = this.sql
      .exec<RevocationRow>(`SELECT * FROM link_revocations WHERE next_at <= ? ORDER BY id`, now)
      .toArray();
    await Promise.all(due.map((row) => this.deliver(row, targets)));
  }

  private async deliver(row: RevocationRow, targets: RevocationTargets): Promise<void> {
    try {
      if (row.session_id !== null && row.page_link_id !== null)
        await targets.revokePage(row.person, { sessionId: row.session_id, pageLinkId: row.page_link_id });
      else await targets.removeChatLink(row.person, row.link_id);
      this.sql.exec(`DELETE FROM link_revocations WHERE id = ?`, row.id);
    } catch (error) {
      const wait = REVOCATION_RETRY_MS[Math.min(row.attempts, REVOCATION_RETRY_MS.length - 1)] ?? 0;
      this.sql.exec(
        `UPDATE link_revocations SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE id = ?`,
        this.now() + wait,
        error instanceof Error ? error.message : String(error),
        row.id,
      );
    }
  }
}

// "See all" from a chat message: a code minted when the button is pressed, good once and for a few
// minutes and only while the account's link lasts, that opens the card's session in Parley as the
// account that pressed it. Only a hash of each code is kept (in the channel object's SQLite), so
// its table opens nothing; the pages codes opened are kept until they expire, to be revoked with
// their link.
import type { SeeAllGrant, SeeAllOpening } from "../objects/contracts/channel";
import type { ChatPlatform } from "../protocol/reach/channels";
import type { SeeAllPage } from "./link-revocations";

/** How long a See all link may be opened after its press. */
export const SEE_ALL_TTL_MS = 5 * 60_000;
/** How long the session page it opens may keep answering (an `answer` share link's life). */
export const SEE_ALL_PAGE_TTL_MS = 15 * 60_000;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS see_all_codes (
    code_hash TEXT PRIMARY KEY, person TEXT NOT NULL, platform TEXT NOT NULL, account_id TEXT NOT NULL,
    name TEXT NOT NULL, session_id TEXT NOT NULL, interaction_id TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS see_all_pages (
    page_link_id TEXT PRIMARY KEY, link_id TEXT NOT NULL, person TEXT NOT NULL, session_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL)`,
];

async function hashOf(code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class SeeAllCodes {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
    // Codes minted before they named their link have none, and are refused at redemption.
    const columns = sql.exec<{ name: string }>(`PRAGMA table_info(see_all_codes)`).toArray();
    if (!columns.some((column) => column.name === "link_id"))
      sql.exec(`ALTER TABLE see_all_codes ADD COLUMN link_id TEXT`);
  }

  /** A fresh code for `grant`, good once until `SEE_ALL_TTL_MS` from now. */
  async mint(grant: SeeAllGrant): Promise<string> {
    const now = this.now();
    this.sql.exec(`DELETE FROM see_all_codes WHERE expires_at <= ?`, now);
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    const code = btoa(String.fromCharCode(...bytes))
      .replaceAll("+", "-")
      .replaceAll("/", "_");
    this.sql.exec(
      `INSERT INTO see_all_codes (code_hash, person, platform, account_id, name, session_id, interaction_id,
         expires_at, link_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      await hashOf(code),
      grant.person,
      grant.platform,
      grant.accountId,
      grant.name,
      grant.sessionId,
      grant.interactionId,
      now + SEE_ALL_TTL_MS,
      grant.linkId,
    );
    return code;
  }

  /**
   * Spends `code`: what it opens the first time, within its life, while `linkIsLive` says its
   * account's link lasts; null ever after. The page it opens is recorded under that link.
   */
  async redeem(code: string, linkIsLive: (grant: SeeAllGrant) => boolean): Promise<SeeAllOpening | null> {
    const hash = await hashOf(code);
    // One statement reads and deletes: two opens racing get one row between them.
    const row = this.sql
      .exec<{
        person: string;
        platform: ChatPlatform;
        account_id: string;
        name: string;
        session_id: string;
        interaction_id: string;
        expires_at: number;
        link_id: string | null;
      }>(`DELETE FROM see_all_codes WHERE code_hash = ? RETURNING *`, hash)
      .toArray()[0];
    const now = this.now();
    if (!row || row.expires_at <= now || row.link_id === null) return null;
    const grant: SeeAllGrant = {
      person: row.person,
      platform: row.platform,
      accountId: row.account_id,
      name: row.name,
      sessionId: row.session_id,
      interactionId: row.interaction_id,
      linkId: row.link_id,
    };
    if (!linkIsLive(grant)) return null;
    this.sql.exec(`DELETE FROM see_all_pages WHERE expires_at <= ?`, now);
    const page = { linkId: randomHex(16), expiresAt: now + SEE_ALL_PAGE_TTL_MS };
    this.sql.exec(
      `INSERT INTO see_all_pages (page_link_id, link_id, person, session_id, expires_at) VALUES (?, ?, ?, ?, ?)`,
      page.linkId,
      grant.linkId,
      grant.person,
      grant.sessionId,
      page.expiresAt,
    );
    return { ...grant, page };
  }

  /** Whether the page of share link `pageLinkId` may still be open: its link lasts and it has not expired. */
  pageIsLive(pageLinkId: string): boolean {
    return (
      this.sql
        .exec(`SELECT 1 FROM see_all_pages WHERE page_link_id = ? AND expires_at > ?`, pageLinkId, this.now())
        .toArray().length > 0
    );
  }

  /** Link `linkId` ended: its unspent codes go, and the pages it opened that may still be open are returned. */
  endLink(linkId: string): SeeAllPage[] {
    this.sql.exec(`DELETE FROM see_all_codes WHERE link_id = ?`, linkId);
    return this.sql
      .exec<{ session_id: string; page_link_id: string; expires_at: number }>(
        `DELETE FROM see_all_pages WHERE link_id = ? RETURNING session_id, page_link_id, expires_at`,
        linkId,
      )
      .toArray()
      .filter((row) => row.expires_at > this.now())
      .map((row) => ({ sessionId: row.session_id, pageLinkId: row.page_link_id }));
  }
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
}

// "See all" from a chat message: a code minted when the button is pressed, good once and for a few
// minutes, that opens the card's session in Parley as the account that pressed it. Only a hash of
// each code is kept (in the channel object's SQLite), so its table opens nothing.
import type { ChatPlatform } from "../protocol/channels";

/** How long a See all link may be opened after its press. */
export const SEE_ALL_TTL_MS = 5 * 60_000;
/** How long the session page it opens may keep answering (an `answer` share link's life). */
export const SEE_ALL_PAGE_TTL_MS = 15 * 60_000;

const SCHEMA = `CREATE TABLE IF NOT EXISTS see_all_codes (
  code_hash TEXT PRIMARY KEY, person TEXT NOT NULL, platform TEXT NOT NULL, account_id TEXT NOT NULL,
  name TEXT NOT NULL, session_id TEXT NOT NULL, interaction_id TEXT NOT NULL, expires_at INTEGER NOT NULL)`;

/** What a See all link opens: one card of one person, as the chat account that pressed for it. */
export interface SeeAllGrant {
  person: string;
  platform: ChatPlatform;
  accountId: string;
  name: string;
  sessionId: string;
  interactionId: string;
}

async function hashOf(code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class SeeAllCodes {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
  ) {
    sql.exec(SCHEMA);
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
      `INSERT INTO see_all_codes (code_hash, person, platform, account_id, name, session_id, interaction_id, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      await hashOf(code),
      grant.person,
      grant.platform,
      grant.accountId,
      grant.name,
      grant.sessionId,
      grant.interactionId,
      now + SEE_ALL_TTL_MS,
    );
    return code;
  }

  /** Spends `code`: what it opens the first time, within its life; null ever after. */
  async redeem(code: string): Promise<SeeAllGrant | null> {
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
      }>(`DELETE FROM see_all_codes WHERE code_hash = ? RETURNING *`, hash)
      .toArray()[0];
    if (!row || row.expires_at <= this.now()) return null;
    return {
      person: row.person,
      platform: row.platform,
      accountId: row.account_id,
      name: row.name,
      sessionId: row.session_id,
      interactionId: row.interaction_id,
    };
  }
}

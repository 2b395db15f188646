// Who a chat account belongs to: one-time link codes a person mints from their inbox, and the
// accounts that sent one in a direct message. An account id is keyed with its platform, so the
// same digits on two platforms are two accounts; an account has one link at a time. A code an
// invited approver minted links the account as that approver (`approver_id`), in the inviter's
// inbox but never as the inviter.
import type { ChatAnswerer } from "../objects/contracts/inbox-chat";
import type { ChannelAccountView, ChatPlatform } from "../protocol/reach/channels";

/** How long a link code may be sent to the bot. */
export const LINK_CODE_TTL_MS = 10 * 60_000;
/** Codes are read aloud and typed: no 0/O, 1/I/L. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 8;
/** Unconsumed codes one person may hold at once. */
const MAX_OPEN_CODES = 5;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS link_codes (
    code TEXT PRIMARY KEY, person TEXT NOT NULL, platform TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS chat_accounts (
    platform TEXT NOT NULL, account_id TEXT NOT NULL, person TEXT NOT NULL, name TEXT NOT NULL,
    thread_id TEXT NOT NULL, link_id TEXT NOT NULL UNIQUE, linked_at INTEGER NOT NULL,
    PRIMARY KEY (platform, account_id))`,
];
/** Columns added since: a table made before gains them (null: the person's own). */
const ADDED = [
  ["link_codes", "approver_id"],
  ["chat_accounts", "approver_id"],
] as const;

export interface ChatAccount extends ChannelAccountView {
  person: string;
  /** The direct-message thread the account linked from: where its cards are sent. */
  threadId: string;
  /** The approver of `person` the account answers as; null when it is the person's own. */
  approverId?: string | null;
}

/** The account as its person's inbox takes an answer from it. */
export function answerer(account: ChatAccount): ChatAnswerer {
  const { person, linkId, platform, accountId, name, approverId } = account;
  return { person, linkId, platform, accountId, name, approverId };
}

type AccountRow = {
  platform: ChatPlatform;
  account_id: string;
  person: string;
  name: string;
  thread_id: string;
  link_id: string;
  linked_at: number;
  approver_id: string | null;
};

export class ChannelDirectory {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
    for (const [table, column] of ADDED) {
      const columns = sql.exec<{ name: string }>(`PRAGMA table_info(${table})`).toArray();
      if (!columns.some((one) => one.name === column))
        sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
    }
  }

  /** A fresh code for `person` (or their approver `approverId`); null when too many are unexpired. */
  mintCode(
    person: string,
    platform: ChatPlatform,
    approverId: string | null = null,
  ): { code: string; expiresAt: number } | null {
    const now = this.now();
    this.sql.exec(`DELETE FROM link_codes WHERE expires_at <= ?`, now);
    const open = this.sql
      .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM link_codes WHERE person = ?`, person)
      .one().n;
    if (open >= MAX_OPEN_CODES) return null;
    const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH));
    const code = Array.from(bytes, (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join("");
    const expiresAt = now + LINK_CODE_TTL_MS;
    this.sql.exec(
      `INSERT INTO link_codes (code, person, platform, expires_at, approver_id) VALUES (?, ?, ?, ?, ?)`,
      code,
      person,
      platform,
      expiresAt,
      approverId,
    );
    return { code, expiresAt };
  }

  /**
   * Spends `code` for an account of `platform`: links the account to the code's person with a new
   * link id. The account's link before, to this person or another, ends here (`replaced`): its
   * inbox must stop sending to it. Null when the code is unknown, expired, spent or for another
   * platform — and then nothing changes.
   */
  link(
    platform: ChatPlatform,
    code: string,
    account: { accountId: string; name: string; threadId: string },
  ): { account: ChatAccount; replaced: ChatAccount | null } | null {
    const now = this.now();
    const row = this.sql
      .exec<{ person: string; platform: string; expires_at: number; approver_id: string | null }>(
        `SELECT person, platform, expires_at, approver_id FROM link_codes WHERE code = ?`,
        code.trim().toUpperCase(),
      )
      .toArray()[0];
    if (!row || row.platform !== platform || row.expires_at <= now) return null;
    this.sql.exec(`DELETE FROM link_codes WHERE code = ?`, code.trim().toUpperCase());
    const replaced = this.account(platform, account.accountId);
    this.sql.exec(
      `INSERT INTO chat_accounts (platform, account_id, person, name, thread_id, link_id, linked_at, approver_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, account_id) DO UPDATE SET person = excluded.person, name = excluded.name,
         thread_id = excluded.thread_id, link_id = excluded.link_id, linked_at = excluded.linked_at,
         approver_id = excluded.approver_id`,
      platform,
      account.accountId,
      row.person,
      account.name,
      account.threadId,
      crypto.randomUUID(),
      now,
      row.approver_id,
    );
    const linked = this.account(platform, account.accountId);
    if (!linked) throw new Error("The account's link was not stored");
    return { account: linked, replaced };
  }

  /** The account linked with `linkId` while that link lasts; null once it was unlinked or replaced. */
  accountOfLink(linkId: string): ChatAccount | null {
    const row = this.sql
      .exec<AccountRow>(`SELECT * FROM chat_accounts WHERE link_id = ?`, linkId)
      .toArray()[0];
    return row ? toAccount(row) : null;
  }

  account(platform: ChatPlatform, accountId: string): ChatAccount | null {
    const row = this.sql
      .exec<AccountRow>(
        `SELECT * FROM chat_accounts WHERE platform = ? AND account_id = ?`,
        platform,
        accountId,
      )
      .toArray()[0];
    return row ? toAccount(row) : null;
  }

  /** `person`'s own accounts, or with `approverId` that approver's (never the one for the other). */
  accountsOf(person: string, approverId: string | null = null): ChatAccount[] {
    return this.sql
      .exec<AccountRow>(
        `SELECT * FROM chat_accounts WHERE person = ? AND approver_id IS ? ORDER BY linked_at, link_id`,
        person,
        approverId,
      )
      .toArray()
      .map(toAccount);
  }

  /** Every account linked as approver `approverId`, whoever invited them. */
  accountsOfApprover(approverId: string): ChatAccount[] {
    return this.sql
      .exec<AccountRow>(`SELECT * FROM chat_accounts WHERE approver_id = ?`, approverId)
      .toArray()
      .map(toAccount);
  }

  /** Unlinks one of `person`'s accounts (or their approver's); null when there is no such link. */
  unlink(person: string, linkId: string, approverId: string | null = null): ChatAccount | null {
    const row = this.sql
      .exec<AccountRow>(
        `SELECT * FROM chat_accounts WHERE link_id = ? AND person = ? AND approver_id IS ?`,
        linkId,
        person,
        approverId,
      )
      .toArray()[0];
    if (!row) return null;
    this.sql.exec(`DELETE FROM chat_accounts WHERE link_id = ?`, linkId);
    return toAccount(row);
  }
}

function toAccount(row: AccountRow): ChatAccount {
  return {
    linkId: row.link_id,
    platform: row.platform,
    accountId: row.account_id,
    name: row.name,
    linkedAt: row.linked_at,
    person: row.person,
    threadId: row.thread_id,
    approverId: row.approver_id ?? null,
  };
}

// A person's email addresses in their Inbox object: an address is added with a code sent to it and
// verified when that code comes back. The code is kept only as a hash, for ten minutes, for five
// tries, and used once; at most three codes per address an hour, and a few addresses per person.
import * as z from "zod";
import type { EmailAddressView } from "../protocol/reach/email";
import type { SqlCounter } from "../storage/sql-counter";

/** How long a code answers. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes before the code is void (a new one must be asked for). */
export const MAX_CODE_TRIES = 5;
/** Codes sent to one address within an hour. */
export const MAX_CODES_PER_HOUR = 3;
/** Addresses one person may hold, verified or not. */
export const MAX_EMAILS = 5;

const HOUR_MS = 60 * 60_000;
const SentTimes = z.array(z.number());

type Row = {
  address: string;
  person: string;
  origin: string;
  created_at: number;
  verified_at: number | null;
  code_hash: string | null;
  code_expires_at: number | null;
  code_tries: number;
  codes_sent: string;
};

/** What asking for a code came to: the code to send, or why none is sent. */
export type CodeRequest =
  | { ok: true; code: string }
  | { ok: false; reason: "too_many_addresses" | "rate_limited" };

/** What a code came to. */
export type CodeCheck = "verified" | "wrong" | "expired" | "no_code";

export class EmailAddresses {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  /**
   * A new code for `person`'s `address` (added if new, from the deployment's `origin`): the
   * previous code is void. Refused past the address limit or the hourly limit; then nothing changes.
   */
  async requestCode(person: string, address: string, origin: string): Promise<CodeRequest> {
    const now = this.now();
    const row = this.row(address);
    if (!row && this.count() >= MAX_EMAILS) return { ok: false, reason: "too_many_addresses" };
    const sent = row ? SentTimes.parse(JSON.parse(row.codes_sent)).filter((at) => at > now - HOUR_MS) : [];
    if (sent.length >= MAX_CODES_PER_HOUR) return { ok: false, reason: "rate_limited" };
    const code = randomCode();
    const hash = await codeHash(address, code);
    this.sql.run(
      ["emails"],
      `INSERT INTO emails (address, person, origin, created_at, verified_at, code_hash, code_expires_at, code_tries,
         codes_sent)
       VALUES (?, ?, ?, ?, NULL, ?, ?, 0, ?)
       ON CONFLICT (address) DO UPDATE SET origin = excluded.origin, code_hash = excluded.code_hash,
         code_expires_at = excluded.code_expires_at, code_tries = 0, codes_sent = excluded.codes_sent`,
      address,
      person,
      origin,
      now,
      hash,
      now + CODE_TTL_MS,
      JSON.stringify([...sent, now]),
    );
    return { ok: true, code };
  }

  /** Checks `code` for `address`: right once, in time and within its tries, it verifies the address. */
  async verify(address: string, code: string): Promise<CodeCheck> {
    const row = this.row(address);
    if (!row?.code_hash || row.code_expires_at === null) return "no_code";
    if (row.code_expires_at <= this.now()) {
      this.clearCode(address);
      return "expired";
    }
    if ((await codeHash(address, code)) !== row.code_hash) {
      // The last try spends the code: guessing six digits needs a new code every few tries.
      if (row.code_tries + 1 >= MAX_CODE_TRIES) this.clearCode(address);
      else
        this.sql.run(["emails"], `UPDATE emails SET code_tries = code_tries + 1 WHERE address = ?`, address);
      return "wrong";
    }
    this.sql.run(
      ["emails"],
      `UPDATE emails SET verified_at = COALESCE(verified_at, ?), code_hash = NULL, code_expires_at = NULL,
         code_tries = 0 WHERE address = ?`,
      this.now(),
      address,
    );
    return "verified";
  }

  list(): EmailAddressView[] {
    return this.sql.all<Row>(`SELECT * FROM emails ORDER BY created_at, address`).map((row) => ({
      address: row.address,
      verified: row.verified_at !== null,
      createdAt: row.created_at,
      verifiedAt: row.verified_at,
    }));
  }

  /** The verified addresses, with their person and the origin each was added from (for links back). */
  verified(): Array<{ address: string; person: string; origin: string }> {
    return this.sql
      .all<Row>(`SELECT * FROM emails WHERE verified_at IS NOT NULL ORDER BY created_at, address`)
      .map((row) => ({ address: row.address, person: row.person, origin: row.origin }));
  }

  isVerified(address: string): boolean {
    return (this.row(address)?.verified_at ?? null) !== null;
  }

  remove(address: string): boolean {
    return this.sql.run(["emails"], `DELETE FROM emails WHERE address = ?`, address) > 0;
  }

  private row(address: string): Row | null {
    return this.sql.one<Row>(`SELECT * FROM emails WHERE address = ?`, address);
  }

  private count(): number {
    return this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM emails`)?.n ?? 0;
  }

  private clearCode(address: string): void {
    this.sql.run(
      ["emails"],
      `UPDATE emails SET code_hash = NULL, code_expires_at = NULL, code_tries = 0 WHERE address = ?`,
      address,
    );
  }
}

/** Six digits, uniformly (rejection sampling: no digit more likely than another). */
function randomCode(): string {
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    const value = buffer[0] ?? 0;
    if (value < 4_294_000_000) return String(value % 1_000_000).padStart(6, "0");
  }
}

// Bound to the address, so a code's hash says nothing about another address's code.
async function codeHash(address: string, code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${address}\n${code}`));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

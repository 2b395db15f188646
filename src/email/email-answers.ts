// Each card email's one answer, kept by the Inbox object that sent it: a token (in the email's link
// and its Reply-To) standing for one card, the person it answers as and the address it went to.
// Claimed once before the session answers and given back if the session refuses; void at the
// card's deadline, and dropped a day after it.
import type { EmailAnswerClaim } from "../protocol/reach/email";
import type { SqlCounter } from "../storage/sql-counter";
import { newReplyToken } from "./reply-token";

/** How long after its card's deadline a token's row is kept (to refuse it as expired, not unknown). */
const KEPT_MS = 24 * 60 * 60_000;

type Row = {
  token: string;
  session_id: string;
  interaction_id: string;
  person: string;
  address: string;
  expires_at: number;
  used_at: number | null;
};

/** A new answer: the card, whom it answers as, where its email goes, until when. */
export interface NewEmailAnswer extends EmailAnswerClaim {
  address: string;
  expiresAt: number;
}

/** Why a claim is refused. */
export type AnswerRefusal = "unknown" | "used" | "expired" | "wrong_sender";

export class EmailAnswers {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  /** Stores a new answer for one email; its token. */
  issue(answer: NewEmailAnswer): string {
    const token = newReplyToken(answer.sessionId);
    const now = this.now();
    this.sql.run(["email_answers"], `DELETE FROM email_answers WHERE expires_at < ?`, now - KEPT_MS);
    this.sql.run(
      ["email_answers"],
      `INSERT INTO email_answers (token, session_id, interaction_id, person, address, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      token,
      answer.sessionId,
      answer.interactionId,
      answer.person,
      answer.address,
      answer.expiresAt,
    );
    return token;
  }

  /**
   * Spends `token` for an answer, once: refused when unknown, used, past its card's deadline or, for
   * a reply (`from` set), sent from any address but the one the email went to; then nothing changes.
   */
  claim(
    token: string,
    from: string | null,
  ): { ok: true; claim: EmailAnswerClaim; address: string } | { ok: false; reason: AnswerRefusal } {
    const row = this.sql.one<Row>(`SELECT * FROM email_answers WHERE token = ?`, token);
    if (!row) return { ok: false, reason: "unknown" };
    if (from !== null && from.toLowerCase() !== row.address.toLowerCase())
      return { ok: false, reason: "wrong_sender" };
    if (row.used_at !== null) return { ok: false, reason: "used" };
    if (row.expires_at <= this.now()) return { ok: false, reason: "expired" };
    const spent = this.sql.run(
      ["email_answers"],
      `UPDATE email_answers SET used_at = ? WHERE token = ? AND used_at IS NULL`,
      this.now(),
      token,
    );
    if (spent === 0) return { ok: false, reason: "used" };
    const claim = { sessionId: row.session_id, interactionId: row.interaction_id, person: row.person };
    return { ok: true, claim, address: row.address };
  }

  /** Gives a claimed token back after the session refused its answer (nothing was answered). */
  release(token: string): void {
    this.sql.run(["email_answers"], `UPDATE email_answers SET used_at = NULL WHERE token = ?`, token);
  }
}

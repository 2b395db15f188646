// Emails an Inbox object sends: a row is stored first, then the one alarm sends it through the
// `EMAIL` binding (a deadline source), retrying a failure a few times. A card's link is signed as it
// is sent (signing is asynchronous; storing is not), and once sent the text and the card are dropped.
// What was sent stays listed for the person.
import * as z from "zod";
import type { DeadlineSource } from "../objects/deadline-source";
import type { EmailDeliveryView } from "../protocol/email";
import type { SqlCounter } from "../storage/sql-counter";

/** Waits before attempts 2, 3, 4; after the last the email is given up. */
const RETRY_DELAYS_MS = [30_000, 300_000, 1_800_000] as const;
/** Emails one alarm sends at most; it comes straight back for the rest. */
const BATCH = 20;

/** Why an email is sent. */
export type EmailPurpose = EmailDeliveryView["purpose"];

/** One email as it is handed to the binding. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** The card's reply token, when a reply to this email may answer it (src/email/email-reply.ts). */
  replyToken?: string;
}

/** The card an email's link opens, signed for when the email is sent (src/email/card-link.ts). */
export const CardLinkClaims = z.object({
  sessionId: z.string(),
  interactionId: z.string(),
  /** Who the link answers as: the person the email went to. */
  person: z.string(),
  expiresAt: z.number(),
  origin: z.string(),
  /** The email's one answer (its link's and a reply's), kept by the inbox (src/email/email-answers.ts). */
  replyToken: z.string().optional(),
});
export type CardLinkClaims = z.infer<typeof CardLinkClaims>;

/** The email's text with its card's link in it. */
export type LinkWriter = (text: string, link: CardLinkClaims) => Promise<string>;

/** Sends one email; throws when it could not be handed over. */
export type EmailPort = (email: OutgoingEmail) => Promise<void>;

type Row = {
  id: number;
  address: string;
  subject: string;
  text: string | null;
  link: string | null;
  purpose: EmailPurpose;
  status: EmailDeliveryView["status"];
  attempts: number;
  next_at: number | null;
  created_at: number;
  error: string | null;
};

export class EmailOutbox implements DeadlineSource {
  readonly name = "emails";

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
    /** The binding's sender, or null when the deployment sends no email (rows then fail at once). */
    private readonly port: () => EmailPort | null,
    private readonly writeLink: LinkWriter,
  ) {}

  /** Stores an email for the alarm to send now; `link`, the card its link opens. */
  enqueue(email: OutgoingEmail, purpose: EmailPurpose, link: CardLinkClaims | null = null): void {
    const now = this.now();
    this.sql.run(
      ["email_outbox"],
      `INSERT INTO email_outbox (address, subject, text, link, purpose, status, attempts, next_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
      email.to,
      email.subject,
      email.text,
      link ? JSON.stringify(link) : null,
      purpose,
      now,
      now,
    );
  }

  next(): number | null {
    return (
      this.sql.one<{ at: number | null }>(
        `SELECT MIN(next_at) AS at FROM email_outbox WHERE next_at IS NOT NULL`,
      )?.at ?? null
    );
  }

  /** Sends what is due; a failure is retried later, never thrown. */
  async fire(now: number): Promise<undefined> {
    const due = this.sql.all<Row>(
      `SELECT * FROM email_outbox WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at LIMIT ?`,
      now,
      BATCH,
    );
    if (due.length === 0) return;
    // Taken before sending: an alarm that fires again meanwhile does not send them twice.
    for (const row of due) this.settle(row.id, "pending", row.attempts + 1, now + 60_000, null, row);
    const port = this.port();
    await Promise.all(
      due.map(async (row) => {
        const attempts = row.attempts + 1;
        try {
          if (!port) throw new Error("This deployment sends no email (no EMAIL binding or EMAIL_FROM)");
          const link = row.link ? CardLinkClaims.parse(JSON.parse(row.link)) : null;
          const text = link ? await this.writeLink(row.text ?? "", link) : (row.text ?? "");
          const reply = link?.replyToken ? { replyToken: link.replyToken } : {};
          await port({ to: row.address, subject: row.subject, text, ...reply });
          this.settle(row.id, "sent", attempts, null, null, null);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const delay = port ? RETRY_DELAYS_MS[attempts - 1] : undefined;
          if (delay === undefined) this.settle(row.id, "failed", attempts, null, message, null);
          else this.settle(row.id, "pending", attempts, now + delay, message, row);
        }
      }),
    );
  }

  list(limit = 100): EmailDeliveryView[] {
    return this.sql.all<Row>(`SELECT * FROM email_outbox ORDER BY id DESC LIMIT ?`, limit).map((row) => ({
      id: row.id,
      address: row.address,
      subject: row.subject,
      purpose: row.purpose,
      status: row.status,
      attempts: row.attempts,
      createdAt: row.created_at,
      error: row.error,
    }));
  }

  private settle(
    id: number,
    status: Row["status"],
    attempts: number,
    nextAt: number | null,
    error: string | null,
    /** What is kept to send it again; null drops the text and the card. */
    kept: Pick<Row, "text" | "link"> | null,
  ): void {
    this.sql.run(
      ["email_outbox"],
      `UPDATE email_outbox SET status = ?, attempts = ?, next_at = ?, error = ?, text = ?, link = ? WHERE id = ?`,
      status,
      attempts,
      nextAt,
      error,
      kept?.text ?? null,
      kept?.link ?? null,
      id,
    );
  }
}

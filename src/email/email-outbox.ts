// Emails an Inbox object sends, as delivery rows of the one shape (src/notify/delivery-rows.ts): a
// row is stored first, then sent through the `EMAIL` binding as soon as the step that stored it is
// done (the inbox's `sendAtOnce` trigger calls `fire`), leased while it is sent; the one alarm (this
// is a deadline source) only retries, on the one schedule. A card's link is signed as it is sent
// (signing is asynchronous; storing is not); once settled the text and the card are dropped.
import * as z from "zod";
import { type AnyDeliveryRow, DeliveryRows } from "../notify/delivery-rows";
import { type DeadlineSource, isDue } from "../objects/deadline-source";
import type { EmailDeliveryView } from "../protocol/reach/email";
import type { DeliveryView } from "../protocol/reach/notify";
import type { SqlCounter } from "../storage/sql-counter";

/** Emails one attempt sends at most; the alarm comes straight back for the rest. */
const BATCH = 20;
/** How long an email taken for sending is held before another attempt may take it again. */
const LEASE_MS = 60_000;

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

type Row = AnyDeliveryRow & {
  address: string;
  subject: string;
  text: string | null;
  link: string | null;
  purpose: EmailPurpose;
};

export class EmailOutbox implements DeadlineSource {
  readonly name = "emails";
  private readonly rows: DeliveryRows<Row>;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
    /** The binding's sender, or null when the deployment sends no email (rows then fail at once). */
    private readonly port: () => EmailPort | null,
    private readonly writeLink: LinkWriter,
  ) {
    // An email's channel is the one word; its target the address, its change why it was sent.
    this.rows = new DeliveryRows(sql, now, {
      name: "email_outbox",
      columns: "*, 'email' AS channel, address AS target, purpose AS change",
    });
  }

  /** Stores an email, due now, sent once the step is done; `link`, the card its link opens. */
  enqueue(email: OutgoingEmail, purpose: EmailPurpose, link: CardLinkClaims | null = null): void {
    const now = this.now();
    this.sql.run(
      ["email_outbox"],
      `INSERT INTO email_outbox (address, subject, text, link, purpose, interaction_id, status, attempts, next_at,
         created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      email.to,
      email.subject,
      email.text,
      link ? JSON.stringify(link) : null,
      purpose,
      link?.interactionId ?? null,
      now,
      now,
      now,
    );
  }

  next(): number | null {
    return this.rows.earliestDue();
  }

  /** Sends what is due; a failure is retried on the one schedule, never thrown. */
  async fire(now: number): Promise<undefined> {
    if (!isDue(this.rows.earliestDue(), now)) return;
    // Leased before sending: the alarm, or a step's attempt, coming meanwhile does not send them twice.
    const due = this.rows.lease(now, now + LEASE_MS, BATCH);
    const port = this.port();
    await Promise.all(
      due.map(async (row) => {
        let failure: { retry: boolean; message: string } | null = null;
        try {
          if (!port) throw new Error("This deployment sends no email (no EMAIL binding or EMAIL_FROM)");
          const link = row.link ? CardLinkClaims.parse(JSON.parse(row.link)) : null;
          const text = link ? await this.writeLink(row.text ?? "", link) : (row.text ?? "");
          const reply = link?.replyToken ? { replyToken: link.replyToken } : {};
          await port({ to: row.address, subject: row.subject, text, ...reply });
        } catch (error) {
          // Without a sender no retry helps; any other failure may pass.
          failure = { retry: port !== null, message: error instanceof Error ? error.message : String(error) };
        }
        this.rows.settleAttempt(row.id, row.attempts, failure);
        // A settled email keeps neither its text nor its card.
        this.sql.run(
          ["email_outbox"],
          `UPDATE email_outbox SET text = NULL, link = NULL WHERE id = ? AND status != 'pending'`,
          row.id,
        );
      }),
    );
  }

  /** What was sent and is sending, as the person's email list shows it: never the text. */
  list(limit = 100): EmailDeliveryView[] {
    return this.sql.all<Row>(`SELECT * FROM email_outbox ORDER BY id DESC LIMIT ?`, limit).map((row) => ({
      id: row.id,
      address: row.address,
      subject: row.subject,
      purpose: row.purpose,
      status: row.status === "delivered" ? "sent" : row.status === "pending" ? "pending" : "failed",
      attempts: row.attempts,
      createdAt: row.created_at,
      error: row.last_error,
    }));
  }

  /** The rows in the inbox's one delivery log, newest first. */
  deliveries(limit = 200): DeliveryView[] {
    return this.rows.list(limit);
  }
}

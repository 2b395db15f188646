// The email part of a person's Inbox object: their verified addresses, the emails it sends (codes,
// escalations: at once after the step that stored them, retried on its one alarm), and what a rung
// of a card's ladder sends. One RPC door (`run`) for the routes, so the Inbox object only forwards.
import type { Config } from "../config";
import { loadShellReader } from "../grants/shell-reader";
import type { SqlDeliveryStore } from "../notify/delivery-store";
import { SqlSubscriptionStore } from "../notify/subscription-store";
import type { InboxEvent } from "../protocol/inbox/inbox";
import type { EmailAction, EmailOutcome } from "../protocol/reach/email";
import type { ErrorBody } from "../protocol/wire/errors";
import type { SqlCounter } from "../storage/sql-counter";
import { writeCardLink } from "./card-link";
import { CODE_TTL_MS, EmailAddresses } from "./email-addresses";
import { type AnswerRefusal, EmailAnswers } from "./email-answers";
import { EmailOutbox, type EmailPort } from "./email-outbox";
import { type EscalationContact, InboxEscalation } from "./inbox-escalation";
import { replyAddress } from "./reply-token";

export interface InboxEmailDeps {
  sql: SqlCounter;
  now(): number;
  config: Pick<Config, "email" | "push" | "sessionSecret">;
  /** The `EMAIL` send_email binding, when the deployment has one. */
  binding: SendEmail | undefined;
  /** The inbox's push deliveries, which its alarm sends. */
  deliveries: SqlDeliveryStore;
  approvers(): EscalationContact[];
}

export class InboxEmail {
  readonly addresses: EmailAddresses;
  readonly outbox: EmailOutbox;
  readonly answers: EmailAnswers;
  private readonly escalation: InboxEscalation;

  constructor(private readonly deps: InboxEmailDeps) {
    this.addresses = new EmailAddresses(deps.sql, deps.now);
    this.answers = new EmailAnswers(deps.sql, deps.now);
    this.outbox = new EmailOutbox(
      deps.sql,
      deps.now,
      () => bindingPort(deps.binding, deps.config.email?.from),
      (text, link) => writeCardLink(deps.config.sessionSecret, text, link),
    );
    this.escalation = new InboxEscalation({
      now: deps.now,
      pushes: deps.config.push !== null,
      subscriptions: new SqlSubscriptionStore(deps.sql, deps.now),
      deliveries: deps.deliveries,
      emails: this.addresses,
      outbox: this.outbox,
      answers: this.answers,
      approvers: deps.approvers,
      agentOf: (sessionId) =>
        deps.sql.one<{ agent: string }>(`SELECT agent FROM sessions WHERE session_id = ?`, sessionId)
          ?.agent ?? null,
    });
    // An approver scoped by a Bash rule is reached only once the rule can be read (a rung comes
    // minutes after the inbox starts): the parser is loaded now, and a failure tried again later.
    if (deps.approvers().some((one) => one.scope.scope === "rule")) loadShellReader().catch(() => {});
  }

  /** Stores the pushes and emails rungs of cards' ladders ask for; true when a push was enqueued. */
  onApplied(events: readonly InboxEvent[]): boolean {
    return this.escalation.onApplied(events);
  }

  async run(action: EmailAction): Promise<EmailOutcome> {
    switch (action.type) {
      case "request_code": {
        if (!this.deps.config.email || !this.deps.binding) {
          return refused(
            "misconfigured",
            "This deployment sends no email (set EMAIL_FROM and the EMAIL binding)",
          );
        }
        const requested = await this.addresses.requestCode(action.person, action.address, action.origin);
        if (!requested.ok) {
          return requested.reason === "rate_limited"
            ? refused(
                "rate_limited",
                "Three codes were sent to this address in the last hour; try again later",
              )
            : refused("invalid_input", "At most 5 email addresses per person; remove one first");
        }
        this.outbox.enqueue(
          {
            to: action.address,
            subject: "Your Parley code",
            text: [
              `Your code: ${requested.code}`,
              "",
              `It verifies this address for Parley's emails, once, within ${CODE_TTL_MS / 60_000} minutes.`,
              "If you did not ask for it, ignore this email.",
            ].join("\n"),
          },
          "verification",
        );
        return this.view();
      }
      case "verify": {
        const checked = await this.addresses.verify(action.address, action.code);
        if (checked === "verified") return this.view();
        return refused(
          "forbidden",
          checked === "expired"
            ? "This code expired; ask for a new one"
            : checked === "no_code"
              ? "No code waits for this address; ask for one"
              : "Wrong code",
        );
      }
      case "list":
        return this.view();
      case "remove":
        if (!this.addresses.remove(action.address)) return refused("not_found", "No such address");
        return this.view();
      case "claim_answer":
        return this.claimAnswer(action.token, action.from);
      case "release_answer":
        this.answers.release(action.token);
        return this.view();
    }
  }

  /**
   * A card email's answer, spent once: by its link, or by a reply from the address it went to while
   * that address still reaches its person (verified here, or the email of an approver not removed).
   */
  private claimAnswer(token: string, from: string | null): EmailOutcome {
    const claimed = this.answers.claim(token, from);
    if (!claimed.ok) return refused("forbidden", ANSWER_REFUSED[claimed.reason]);
    const { claim, address } = claimed;
    const reaches =
      from === null ||
      this.addresses.isVerified(address) ||
      this.deps.approvers().some((one) => one.personId === claim.person && one.email === address);
    if (!reaches) {
      this.answers.release(token);
      return refused("forbidden", ANSWER_REFUSED.wrong_sender);
    }
    return { ok: true, answer: claim };
  }

  private view(): EmailOutcome {
    return { ok: true, addresses: this.addresses.list(), sent: this.outbox.list() };
  }
}

const ANSWER_REFUSED: Record<AnswerRefusal, string> = {
  unknown: "Unknown email answer: reply to the card's own email",
  used: "This email's answer was already used",
  expired: "This email's answer expired with its card's deadline",
  wrong_sender: "Only the address this email went to, while it is verified, answers it",
};

function refused(code: ErrorBody["code"], message: string): EmailOutcome {
  return { ok: false, error: { code, message } };
}

/** Sends through the binding from `from`, or null when the deployment has no email. */
function bindingPort(binding: SendEmail | undefined, from: string | undefined): EmailPort | null {
  if (!binding || !from) return null;
  return async (email) => {
    // A reply answers only through the card's token, in the address replied to.
    const replyTo = email.replyToken ? replyAddress(from, email.replyToken) : null;
    await binding.send({
      from: { email: from, name: "Parley" },
      to: email.to,
      subject: email.subject,
      text: email.text,
      ...(replyTo ? { replyTo } : {}),
    });
  };
}

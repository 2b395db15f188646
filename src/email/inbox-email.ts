// The email part of a person's Inbox object: their verified addresses, the emails it sends on its
// one alarm (codes, escalations), and what a rung of a card's ladder sends. One RPC door (`run`)
// for the routes, so the Inbox object only forwards.
import type { Config } from "../config";
import type { EscalationContact } from "../inbox/inbox-escalation";
import { InboxEscalation } from "../inbox/inbox-escalation";
import type { SqlDeliveryStore } from "../notify/delivery-store";
import { SqlSubscriptionStore } from "../notify/subscription-store";
import type { EmailAction, EmailOutcome } from "../protocol/email";
import type { ErrorBody } from "../protocol/errors";
import type { InboxEvent } from "../protocol/inbox";
import type { SqlCounter } from "../storage/sql-counter";
import { writeCardLink } from "./card-link";
import { CODE_TTL_MS, EmailAddresses } from "./email-addresses";
import { EmailOutbox, type EmailPort } from "./email-outbox";

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
  private readonly escalation: InboxEscalation;

  constructor(private readonly deps: InboxEmailDeps) {
    this.addresses = new EmailAddresses(deps.sql, deps.now);
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
      approvers: deps.approvers,
    });
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
    }
  }

  private view(): EmailOutcome {
    return { ok: true, addresses: this.addresses.list(), sent: this.outbox.list() };
  }
}

function refused(code: ErrorBody["code"], message: string): EmailOutcome {
  return { ok: false, error: { code, message } };
}

/** Sends through the binding from `from`, or null when the deployment has no email. */
function bindingPort(binding: SendEmail | undefined, from: string | undefined): EmailPort | null {
  if (!binding || !from) return null;
  return async (email) => {
    await binding.send({
      from: { email: from, name: "Parley" },
      to: email.to,
      subject: email.subject,
      text: email.text,
    });
  };
}

// What a person's inbox does with a rung of a card's escalation ladder (`card_escalated`), built by
// its email part (inbox-email.ts): to "me", a push to each of the person's subscribed devices and an
// email to each address they verified; to "approvers", a push to each device an approver whose
// scope covers the card subscribed from their answering page, and an email to each such approver
// with an address, its link and reply answering as that approver.
// Every one is a stored row first, sent once the inbox's step that stored it is done by the trigger
// that sends every delivery of the inbox; its alarm retries what failed.

import { loadedParser } from "../grants/shell-reader";
import { reminderNotice } from "../notify/card-notice";
import type { SqlDeliveryStore } from "../notify/delivery-store";
import { APPROVER_HOLDER, type SqlSubscriptionStore } from "../notify/subscription-store";
import { inScope } from "../people/approver-scope";
import type { ApproverContact } from "../people/people-terms";
import type { InboxCard, InboxEvent } from "../protocol/inbox/inbox";
import { sessionKinds } from "../session/session-kinds";
import type { EmailAddresses } from "./email-addresses";
import type { EmailAnswers } from "./email-answers";
import type { CardLinkClaims, EmailOutbox } from "./email-outbox";
import { escalationEmail } from "./escalation-email";

/** Someone the person invited to answer for them, as the escalation reaches them. */
export type EscalationContact = ApproverContact;

export interface InboxEscalationDeps {
  now(): number;
  /** Whether the deployment pushes (VAPID keys). */
  pushes: boolean;
  subscriptions: SqlSubscriptionStore;
  deliveries: SqlDeliveryStore;
  emails: EmailAddresses;
  outbox: EmailOutbox;
  /** Each card email's one answer (its link's and a reply's). */
  answers: EmailAnswers;
  /** The person's approvers (src/inbox/people-store.ts); none where the deployment has none. */
  approvers(): EscalationContact[];
  /** The agent the inbox lists for a session (an approver's scope may name it). */
  agentOf(sessionId: string): string | null;
}

export class InboxEscalation {
  constructor(private readonly deps: InboxEscalationDeps) {}

  /** Stores the pushes and emails the applied rungs ask for; true when any was, for the step to send them. */
  onApplied(events: readonly InboxEvent[]): boolean {
    let pushed = false;
    for (const event of events) {
      const change = event.change;
      if (change.type !== "card_escalated") continue;
      const card: InboxCard = { ...change.card, sessionId: event.sessionId };
      const { notify, to } = change.rung;
      if (notify.includes("push")) pushed = this.push(card, event.seq, to) || pushed;
      if (notify.includes("email")) pushed = this.email(card, to) || pushed;
    }
    return pushed;
  }

  /** The "Still waiting" push: to the person's own devices, or to those of each approver it reaches. */
  private push(card: InboxCard, seq: number, to: "me" | "approvers"): boolean {
    if (!this.deps.pushes) return false;
    const { subscriptions } = this.deps;
    const devices =
      to === "me"
        ? subscriptions.deviceIds()
        : this.deps
            .approvers()
            .filter((approver) => this.reaches(approver, card))
            .flatMap((approver) => subscriptions.heldBy(APPROVER_HOLDER + approver.personId));
    const notice = reminderNotice(card, sessionKinds.summary(card.kind, card.toolName, card.request), {
      sessionId: card.sessionId,
      seq,
      sessionUrl: "",
      now: this.deps.now(),
    });
    for (const deviceId of devices) this.deps.deliveries.enqueue("push", deviceId, notice);
    return devices.length > 0;
  }

  /**
   * Whether `card` is within the approver's scope: a card they may not see never reaches them. A
   * Bash rule is read with the shell parser, loaded with the inbox's email part; before it is, such
   * an approver is not reached rather than reached by a reading that could not be made.
   */
  private reaches(approver: EscalationContact, card: InboxCard): boolean {
    if (approver.scope.scope === "rule" && card.toolName === "Bash" && !loadedParser()) return false;
    return inScope(approver.scope, { ...card, agent: this.deps.agentOf(card.sessionId) });
  }

  private email(card: InboxCard, to: "me" | "approvers"): boolean {
    const verified = this.deps.emails.verified();
    // Links point back to the deployment the person verified an address from.
    const origin = verified[0]?.origin;
    const owner = verified[0]?.person;
    if (!origin || !owner) return false;
    let sent = false;
    const summary = sessionKinds.summary(card.kind, card.toolName, card.request);
    // Each email's link and Reply-To answer once, as the person it went to, from that address.
    const link = (person: string, address: string): CardLinkClaims => {
      const answer = { sessionId: card.sessionId, interactionId: card.interactionId, person };
      const replyToken = this.deps.answers.issue({ ...answer, address, expiresAt: card.expiresAt });
      return { ...answer, expiresAt: card.expiresAt, origin, replyToken };
    };
    const now = this.deps.now();
    if (to === "me") {
      for (const { address, person } of verified) {
        this.deps.outbox.enqueue(
          escalationEmail(card, summary, address, null, now),
          "escalation",
          link(person, address),
        );
        sent = true;
      }
      return sent;
    }
    for (const approver of this.deps.approvers()) {
      if (!approver.email || !this.reaches(approver, card)) continue;
      this.deps.outbox.enqueue(
        escalationEmail(card, summary, approver.email, owner, now),
        "escalation",
        link(approver.personId, approver.email),
      );
      sent = true;
    }
    return sent;
  }
}

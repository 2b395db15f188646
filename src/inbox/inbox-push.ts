// "Notify this device" for a whole inbox: devices subscribe once with the person's inbox, and each
// card that opens in any of the person's sessions is pushed once to each of them. Deliveries are
// rows sent by the inbox's one trigger once the step that stored them is done, retried on its alarm and
// settled by the same Notifier as a session's. An approval one answer decides carries Approve and
// Deny with a single-use answer token. An invited approver's devices are kept here too, held by
// them: they get only a rung of a card's ladder addressed to approvers (src/email/inbox-escalation.ts),
// no badge and no answer token, and go the moment the approver is removed.
import type { Config } from "../config";
import { openedNotice } from "../notify/card-notice";
import { SqlDeliveryStore } from "../notify/delivery-store";
import { Notifier } from "../notify/notifier";
import { withNotificationAnswer } from "../notify/push-actions";
import type { PushExtras } from "../notify/push-sender";
import {
  APPROVER_HOLDER,
  MAX_PUSH_DEVICES,
  MAX_PUSH_DEVICES_PER_LINK,
  SqlSubscriptionStore,
  type StoredSubscription,
  type SubscriberLink,
} from "../notify/subscription-store";
import type { ApproverDeviceChange } from "../objects/contracts/inbox";
import { isDue } from "../objects/deadline-source";
import type { InboxEvent } from "../protocol/inbox/inbox";
import type { CardNotice, PushSubscriptionBody } from "../protocol/reach/notify";
import type { ErrorBody } from "../protocol/wire/errors";
import { sessionKinds } from "../session/session-kinds";
import type { SqlCounter } from "../storage/sql-counter";
import { pushAnswerTokenFor } from "../tokens/push-answer-token";

export interface InboxPushDeps {
  sql: SqlCounter;
  config: Pick<Config, "push" | "sessionSecret">;
  now(): number;
  /** How many cards wait for the person: the badge each push sets. */
  waiting(): number;
  /** False once inbox link `linkId` was revoked or expired: its devices get no more pushes. */
  linkIsLive(linkId: string): boolean;
  /** Moves the inbox's one alarm to the earliest due row, after an attempt settled rows. */
  rearm(): void;
}

export class InboxPush {
  private readonly subscriptions: SqlSubscriptionStore;
  readonly deliveries: SqlDeliveryStore;
  private readonly notifier: Notifier;

  constructor(private readonly deps: InboxPushDeps) {
    this.subscriptions = new SqlSubscriptionStore(deps.sql, deps.now);
    this.deliveries = new SqlDeliveryStore(deps.sql, deps.now);
    // Only the sending half of the session's notifier is used: enqueueing follows inbox events.
    this.notifier = new Notifier({
      config: { push: deps.config.push, webhook: null },
      subscriptions: this.subscriptions,
      deliveries: this.deliveries,
      card: () => null,
      session: () => ({ sessionId: "inbox", pageUrl: "" }),
      webhookPageUrl: async () => null,
      summary: (kind, toolName, request) => sessionKinds.summary(kind, toolName, request),
      // An approver's devices are removed with them (InboxObject.removePerson), not checked here.
      linkIsLive: (linkId) => linkId.startsWith(APPROVER_HOLDER) || deps.linkIsLive(linkId),
      now: deps.now,
      isConnected: () => false,
      rearm: deps.rearm,
      pushExtras: (notice, device) => this.extrasFor(notice, device),
    });
  }

  /**
   * The badge, and for a card its notification may answer, an answer token bound to the card and
   * its deadline: only for a device its person subscribed in person and left the actions on.
   */
  private async extrasFor(
    notice: CardNotice,
    device: StoredSubscription & { deviceId: string },
  ): Promise<PushExtras> {
    // An approver's device is told of a card in their scope, never how many the person has waiting.
    if (device.linkId?.startsWith(APPROVER_HOLDER)) return {};
    const extras: PushExtras = { badge: this.deps.waiting() };
    const person =
      this.deps.sql.one<{ person: string | null }>(
        `SELECT person FROM push_subscriptions WHERE device_id = ?`,
        device.deviceId,
      )?.person ?? null;
    const answerToken = await pushAnswerTokenFor(this.deps.config.sessionSecret, notice, {
      ...device,
      person,
    });
    return answerToken ? { ...extras, answerToken } : extras;
  }

  /**
   * Stores a device's subscription, made in person (`linkId` null) by `person` or through an inbox
   * link, with whether its approvals' notifications carry Approve and Deny (on unless turned off).
   */
  subscribe(body: PushSubscriptionBody, link: SubscriberLink, person: string): ErrorBody | null {
    const holder = this.subscriptions.holder(body.deviceId);
    if (holder !== undefined && link.linkId !== null && holder !== link.linkId) {
      return { code: "forbidden", message: `Device ${body.deviceId} was subscribed by someone else` };
    }
    if (holder === undefined && this.subscriptions.deviceIds().length >= MAX_PUSH_DEVICES) {
      return {
        code: "invalid_input",
        message: `An inbox takes push subscriptions from at most ${MAX_PUSH_DEVICES} devices`,
      };
    }
    if (
      link.linkId !== null &&
      holder !== link.linkId &&
      this.subscriptions.countByLink(link.linkId) >= MAX_PUSH_DEVICES_PER_LINK
    ) {
      return {
        code: "invalid_input",
        message: `At most ${MAX_PUSH_DEVICES_PER_LINK} devices may subscribe through one inbox link`,
      };
    }
    this.subscriptions.put(body.deviceId, body.subscription, link, body.actions !== false);
    this.deps.sql.run(
      ["push_subscriptions"],
      `UPDATE push_subscriptions SET person = ? WHERE device_id = ?`,
      link.linkId === null ? person : null,
      body.deviceId,
    );
    return null;
  }

  /** Removes a device's subscription; an inbox link may remove only those made through it. */
  unsubscribe(deviceId: string, linkId: string | null): boolean {
    const holder = this.subscriptions.holder(deviceId);
    if (holder === undefined || (linkId !== null && holder !== linkId)) return false;
    return this.subscriptions.delete(deviceId);
  }

  /**
   * Approver `personId`'s own devices, oldest first, after `change`: a device subscribed (theirs
   * alone, kept apart from the person's device ids) whose notifications open `url`, their answering
   * page, or one removed; the refusal when a new one would pass MAX_PUSH_DEVICES_PER_LINK.
   */
  approverDevices(personId: string, change?: ApproverDeviceChange): string[] | ErrorBody {
    const holder = APPROVER_HOLDER + personId;
    const { subscriptions } = this;
    if (change && "remove" in change) subscriptions.delete(`${holder}:${change.remove}`);
    else if (change) {
      const key = `${holder}:${change.add.deviceId}`;
      if (
        subscriptions.holder(key) === undefined &&
        subscriptions.countByLink(holder) >= MAX_PUSH_DEVICES_PER_LINK
      ) {
        const message = `An approver may subscribe at most ${MAX_PUSH_DEVICES_PER_LINK} devices`;
        return { code: "invalid_input", message };
      }
      // Without Approve and Deny: a rung's notification opens the approver's page.
      subscriptions.put(key, change.add.subscription, { url: change.url, linkId: holder }, false);
    }
    return subscriptions.heldBy(holder).map((key) => key.slice(holder.length + 1));
  }

  /** A revoked inbox link's devices stop getting pushes. */
  forgetLink(linkId: string): void {
    this.subscriptions.deleteByLink(linkId);
  }

  /**
   * Enqueues one push per subscribed device for each card that opened (never for a card whose
   * terms changed: a device was told once); true when any was, for the inbox's step to send them.
   */
  onApplied(events: readonly InboxEvent[]): boolean {
    if (!this.deps.config.push) return false;
    const devices = this.subscriptions.deviceIds();
    if (devices.length === 0) return false;
    let enqueued = false;
    for (const event of events) {
      if (event.change.type !== "card_opened") continue;
      const card = event.change.card;
      const opened = openedNotice(card, sessionKinds.summary(card.kind, card.toolName, card.request), {
        sessionId: event.sessionId,
        seq: event.seq,
        sessionUrl: "",
        now: this.deps.now(),
      });
      const notice = withNotificationAnswer(opened, card);
      for (const deviceId of devices) this.deliveries.enqueue("push", deviceId, notice);
      enqueued = true;
    }
    return enqueued;
  }

  /**
   * Sends every push that is due (the alarm, and the inbox's trigger after each step); with none
   * due it reads nothing more. Never throws.
   */
  async deliverDue(now: number): Promise<number> {
    return isDue(this.nextDue(), now) ? this.notifier.deliverDue(now) : 0;
  }

  nextDue(): number | null {
    return this.deliveries.earliestDue();
  }
}

// Notifications as side effects of stored events: a card event enqueues one delivery row per
// subscribed device and one for the webhook, sent at once after the step that stored them; the
// alarm sends what that attempt did not settle, and the retries.
import type { Config } from "../config";
import type { KindSummary } from "../interactions/define-interaction";
import { logSecurityEvent } from "../log/security-log";
import type { CardNotice } from "../protocol/reach/notify";
import { type InteractionPromptData, PROMPT_EVENT_TYPES, type SessionEvent } from "../protocol/wire/events";
import { isPromptEvent } from "../protocol/wire/prompt-event";
import { cardUrl, type NoticeContext, openedNotice, reminderNotice, resolvedNotice } from "./card-notice";
import { retryAt, sendAtOnce } from "./delivery-rows";
import type { DueDelivery, SqlDeliveryStore } from "./delivery-store";
import { withNotificationAnswer } from "./push-actions";
import { type PushExtras, sendPush } from "./push-sender";
import type { SendResult } from "./send-result";
import type { SqlSubscriptionStore, StoredSubscription } from "./subscription-store";
import { sendWebhook } from "./webhook-sender";

const CARD_EVENTS = new Set<SessionEvent["type"]>([...PROMPT_EVENT_TYPES, "interaction_resolved"]);

/** How long a row taken for sending is held before another alarm may take it again. */
const LEASE_MS = 60_000;

export interface NotifierDeps {
  config: Pick<Config, "push" | "webhook">;
  subscriptions: SqlSubscriptionStore;
  deliveries: SqlDeliveryStore;
  /** The card as stored, for a resolution event (which carries only its outcome). */
  card(interactionId: string): { toolName: string; request: unknown; expiresAt: number } | null;
  /** The session's id and its page's URL without any token (`…/#/s/<id>`). */
  session(): { sessionId: string; pageUrl: string };
  /**
   * The session's page URL with the token of the answer link minted for this webhook (revocable,
   * listed with the session's links); null when none could be minted. Never the owner's token.
   */
  webhookPageUrl(webhookUrl: string): Promise<string | null>;
  /** The card in words, as its kind says it. */
  summary(kind: string, toolName: string, request: unknown): KindSummary;
  /** False once share link `linkId` was revoked or expired: its subscriptions get no more pushes. */
  linkIsLive(linkId: string): boolean;
  now(): number;
  /**
   * True while the device has the session open (a live socket) with the credential its subscription
   * was made with (`linkId`, null for the owner's): it sees the card without a push.
   */
  isConnected(deviceId: string, linkId: string | null): boolean;
  /** Moves the one alarm to the earliest due row after new deliveries were enqueued. */
  rearm(): void;
  /** What one device's push adds to its card's notice (an answer token; the inbox's badge). */
  pushExtras?(notice: CardNotice, device: { deviceId: string } & StoredSubscription): Promise<PushExtras>;
}

export class Notifier {
  constructor(private readonly deps: NotifierDeps) {}

  /** Sends the rows the current step stored once it is done, as sendAtOnce says; never throws. */
  readonly sendSoon = sendAtOnce(
    () => this.deliverDue(this.deps.now()),
    () => this.deps.rearm(),
  );

  /** Called after each event is stored: enqueues deliveries for card changes. Never throws. */
  onEvent(event: SessionEvent): void {
    try {
      const notice = this.noticeFor(event);
      if (!notice) return;
      // Only a push may carry Approve and Deny: a webhook's receiver answers through its own link.
      const pushed = isPromptEvent(event) ? withNotificationAnswer(notice, event.data) : notice;
      this.enqueue(notice, pushed);
    } catch (error) {
      // A notification must never fail the turn that stored the event.
      console.error("Notifier.onEvent failed", error);
    }
  }

  /**
   * Enqueues a reminder that `card` is still open (its deadline policy's offsets), for the devices
   * that do not have the session open and the webhook. `seq` is the session's last event. Never throws.
   */
  remind(card: InteractionPromptData, seq: number): void {
    try {
      if (!this.deps.config.push && !this.deps.config.webhook) return;
      const session = this.deps.session();
      const context = {
        sessionId: session.sessionId,
        seq,
        sessionUrl: session.pageUrl,
        now: this.deps.now(),
      };
      this.enqueue(reminderNotice(card, this.deps.summary(card.kind, card.toolName, card.request), context));
    } catch (error) {
      console.error("Notifier.remind failed", error);
    }
  }

  private enqueue(notice: CardNotice, pushed: CardNotice = notice): void {
    let rows = 0;
    if (this.deps.config.push) {
      for (const deviceId of this.pushTargets(notice)) {
        this.deps.deliveries.enqueue("push", deviceId, pushed);
        rows += 1;
      }
    }
    if (this.deps.config.webhook) {
      this.deps.deliveries.enqueue("webhook", new URL(this.deps.config.webhook.url).origin, notice);
      rows += 1;
    }
    if (rows === 0) return;
    // Armed in the step's own transaction: the alarm is the rows' retry if the attempt never runs.
    this.deps.rearm();
    this.sendSoon();
  }

  /**
   * An opened card (and a reminder) is pushed to subscribed devices that do not have the session
   * open; a resolved one to the devices that were told it opened, so their notification is replaced.
   */
  private pushTargets(notice: CardNotice): string[] {
    const subscribed = this.deps.subscriptions.deviceIds();
    if (notice.change === "resolved") {
      const told = new Set(this.deps.deliveries.pushedDevices(notice.card.interactionId));
      return subscribed.filter((deviceId) => told.has(deviceId));
    }
    return subscribed.filter((deviceId) => {
      const holder = this.deps.subscriptions.holder(deviceId);
      return holder === undefined || !this.deps.isConnected(deviceId, holder);
    });
  }

  /** Sends every delivery that is due; returns how many were attempted. Never throws. */
  async deliverDue(now: number): Promise<number> {
    const due = this.deps.deliveries.lease(now, now + LEASE_MS);
    await Promise.all(due.map((delivery) => this.deliver(delivery, now)));
    return due.length;
  }

  private async deliver(delivery: DueDelivery, now: number): Promise<void> {
    let result: SendResult;
    try {
      result = await this.send(delivery, now);
    } catch (error) {
      // The payload could not even be built (e.g. a key the library rejects): retrying will not help.
      result = {
        kind: "failed",
        httpStatus: 0,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    if (result.kind === "gone" && delivery.channel === "push")
      this.deps.subscriptions.delete(delivery.target);
    const next = retryAt(delivery.attempts, now);
    const retry = result.kind === "retry" && next !== null;
    if (!retry && (result.kind === "failed" || result.kind === "retry")) {
      logSecurityEvent("delivery_failed", {
        sessionId: this.deps.session().sessionId,
        reason: delivery.channel,
        status: result.httpStatus,
      });
    }
    this.deps.deliveries.settle(delivery.id, {
      status: retry ? "pending" : result.kind === "retry" ? "failed" : result.kind,
      httpStatus: result.httpStatus,
      error: "error" in result ? result.error : null,
      retryAt: retry ? next : null,
    });
  }

  private async send(delivery: DueDelivery, now: number): Promise<SendResult> {
    const { push, webhook } = this.deps.config;
    if (delivery.channel === "webhook") {
      if (!webhook) return { kind: "failed", httpStatus: 0, error: "NOTIFY_WEBHOOK_URL is no longer set" };
      // The stored notice links with no token; the receiver gets its own answer link, not the owner's.
      const pageUrl = await this.deps.webhookPageUrl(webhook.url);
      const notice = pageUrl
        ? { ...delivery.notice, url: cardUrl(pageUrl, delivery.notice.card.interactionId) }
        : delivery.notice;
      return sendWebhook(webhook, notice, delivery.id, now);
    }
    const stored = this.deps.subscriptions.get(delivery.target);
    if (!stored) return { kind: "gone", httpStatus: 0 };
    if (stored.linkId !== null && !this.deps.linkIsLive(stored.linkId))
      return { kind: "gone", httpStatus: 0 };
    if (!push) return { kind: "failed", httpStatus: 0, error: "VAPID keys are no longer set" };
    // The stored notice links with no token; a device gets the link it subscribed with.
    const notice = { ...delivery.notice, url: cardUrl(stored.url, delivery.notice.card.interactionId) };
    const extras = (await this.deps.pushExtras?.(notice, { deviceId: delivery.target, ...stored })) ?? {};
    return sendPush(push, stored.subscription, notice, now, extras);
  }

  private noticeFor(event: SessionEvent): CardNotice | null {
    // Most events (streamed text above all) are not card changes: decide before reading anything.
    if (!CARD_EVENTS.has(event.type)) return null;
    if (!this.deps.config.push && !this.deps.config.webhook) return null;
    const session = this.deps.session();
    const context: NoticeContext = {
      sessionId: session.sessionId,
      seq: event.seq,
      sessionUrl: session.pageUrl,
      now: this.deps.now(),
    };
    if (isPromptEvent(event)) {
      const card = event.data;
      return openedNotice(card, this.deps.summary(card.kind, card.toolName, card.request), context);
    }
    if (event.type !== "interaction_resolved") return null;
    const card = this.deps.card(event.data.interactionId ?? event.data.toolCallId);
    if (!card) return null;
    const summary = this.deps.summary(event.data.kind, card.toolName, card.request);
    return resolvedNotice({ ...event.data, ...card }, summary, context);
  }
}

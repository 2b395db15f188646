// The Chat SDK's Slack adapter, built from Parley's configuration (never from process.env), in
// webhook mode for one workspace, and the inbox's sender over its Web API client: a card is posted
// to the linked account's direct message as literal Block Kit with buttons (src/channels/slack/slack-card.ts)
// and edited to its receipt (without them).
import { createSlackAdapter, type SlackAdapter } from "@chat-adapter/slack";
import { verifySlackSignature } from "@chat-adapter/slack/webhook";
import { ConsoleLogger } from "chat";
import type { SlackConfig } from "../../config";
import { inert } from "../../protocol/text/inert-text";
import { FILL_IN, modalFieldsOf } from "../card-choices";
import { cardMessage } from "../card-message";
import type { ChatCardMessage, ChatSender } from "../chat-sender";
import { slackCard, slackCost } from "./slack-card";

/**
 * The adapter; `verified` hears of each request whose signature the adapter verified (Slack's own
 * check, `X-Slack-Signature` over `v0:<timestamp>:<body>` within 5 minutes), before it is routed.
 */
export function slackAdapter(config: SlackConfig, verified?: (request: Request) => void): SlackAdapter {
  const { signingSecret } = config;
  return createSlackAdapter({
    botToken: config.botToken,
    webhookVerifier: async (request: Request, body: string) => {
      await verifySlackSignature(body, request.headers, { signingSecret });
      verified?.(request);
      return true;
    },
    mode: "webhook",
    ...(config.apiBaseUrl ? { apiUrl: config.apiBaseUrl } : {}),
    // The inbox's outbox retries on its own schedule, and a webhook has 3 seconds: the Web API
    // client's own retries (ten, over half an hour) would hold an alarm or a webhook that long.
    webClientOptions: { retryConfig: { retries: 0 }, rejectRateLimitedCalls: true },
    logger: new ConsoleLogger("warn").child("slack"),
  });
}

/** A failed Web API call as the inbox's outbox reads failures (chat-sender.ts `failureOf`). */
class SlackUnavailable extends Error {
  // The name the outbox retries on, as the Chat SDK's own NetworkError and rate-limit errors carry.
  constructor(
    message: string,
    override readonly name: "NetworkError" | "AdapterRateLimitError",
  ) {
    super(message);
  }
}

type WebApiError = { code?: string; statusCode?: number; message?: string };

/**
 * Slack's Web API client throws its own errors: a 5xx, a request that never got an answer and a
 * rate limit are worth another attempt; Slack's `ok: false` answers (a bad channel, a revoked
 * token) are not.
 */
export function retryable(error: unknown): unknown {
  const { code, statusCode, message } = (error ?? {}) as WebApiError;
  const text = message ?? String(error);
  if (code === "slack_webapi_rate_limited_error") return new SlackUnavailable(text, "AdapterRateLimitError");
  if (code === "slack_webapi_request_error") return new SlackUnavailable(text, "NetworkError");
  if (code === "slack_webapi_http_error" && (statusCode ?? 0) >= 500)
    return new SlackUnavailable(text, "NetworkError");
  return error;
}

/** Text inputs a form may have to be filled in a Slack modal here (Slack allows more; a longer form reads better in Parley). */
export const SLACK_MODAL_INPUTS = 10;

/** The card as Block Kit; a form that fits a modal gets "Fill in". */
function slackMessage(message: ChatCardMessage) {
  const extra = modalFieldsOf(message.card, SLACK_MODAL_INPUTS) ? [{ code: FILL_IN, label: "Fill in" }] : [];
  return slackCard(cardMessage(message, { extra, cost: slackCost }));
}

export function slackSender(config: SlackConfig): ChatSender {
  const adapter = slackAdapter(config);
  // Nothing in a card's message is to be unfurled, linked or formatted beyond its own blocks.
  const literal = { unfurl_links: false, unfurl_media: false, mrkdwn: false } as const;
  const channelOf = (threadId: string) => adapter.decodeThreadId(threadId).channel;
  return {
    async post(threadId, message) {
      try {
        const sent = await adapter.webClient.chat.postMessage({
          channel: channelOf(threadId),
          ...slackMessage(message),
          ...literal,
        });
        return String(sent.ts);
      } catch (error) {
        throw retryable(error);
      }
    },
    async edit(threadId, messageId, text) {
      try {
        const receipt = inert(text);
        // Blocks of their own: `chat.update` without blocks keeps the old ones, buttons included.
        await adapter.webClient.chat.update({
          channel: channelOf(threadId),
          ts: messageId,
          text: receipt,
          blocks: [{ type: "section", text: { type: "plain_text", text: receipt, emoji: false } }],
        });
      } catch (error) {
        throw retryable(error);
      }
    },
    // The card anew as far as its presses got (the next question, a toggled option).
    async update(threadId, messageId, message) {
      try {
        await adapter.webClient.chat.update({
          channel: channelOf(threadId),
          ts: messageId,
          ...slackMessage(message),
        });
      } catch (error) {
        throw retryable(error);
      }
    },
    async notice(threadId, notice) {
      try {
        const text = inert(`${notice.heading}: ${notice.text}`);
        await adapter.webClient.chat.postMessage({
          channel: channelOf(threadId),
          text,
          blocks: [{ type: "section", text: { type: "plain_text", text, emoji: false } }],
          ...literal,
        });
      } catch (error) {
        throw retryable(error);
      }
    },
  };
}

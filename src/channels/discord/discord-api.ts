// Discord's REST API over fetch, as much of it as the channel uses: a message posted to a direct
// message channel (with a nonce Discord enforces, so a retry never posts twice), its edit to the
// receipt, and the follow-up that tells an account something after a deferred answer.
import type { DiscordConfig } from "../../config";
import type { DiscordMessage } from "./discord-message";

export const DISCORD_API_BASE_URL = "https://discord.com/api/v10";

/** A failed call, named as `failureOf` (src/channels/chat-sender.ts) reads it: retried or not. */
export class DiscordApiError extends Error {
  constructor(
    name: "NetworkError" | "AdapterRateLimitError" | "DiscordApiError",
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = name;
  }
}

export class DiscordApi {
  private readonly base: string;

  constructor(private readonly config: DiscordConfig) {
    this.base = (config.apiBaseUrl ?? DISCORD_API_BASE_URL).replace(/\/+$/, "");
  }

  /**
   * Posts `message` to `channelId`; answers the message's id. The nonce makes the call idempotent
   * for a few minutes: Discord answers the message already made with it instead of a second one.
   */
  async createMessage(channelId: string, message: DiscordMessage, nonce: string): Promise<string> {
    const sent = await this.call<{ id: string }>("POST", `/channels/${channelId}/messages`, {
      ...message,
      nonce,
      enforce_nonce: true,
    });
    return sent.id;
  }

  /** Replaces a message's text, and its buttons with `components` (none unless given). */
  async editMessage(
    channelId: string,
    messageId: string,
    content: string,
    components: DiscordMessage["components"] = [],
  ): Promise<void> {
    await this.call("PATCH", `/channels/${channelId}/messages/${messageId}`, {
      content,
      components,
      allowed_mentions: { parse: [] },
    });
  }

  /** Shows a message anew, text and buttons (a card as far as its presses got). */
  async replaceMessage(channelId: string, messageId: string, message: DiscordMessage): Promise<void> {
    await this.call("PATCH", `/channels/${channelId}/messages/${messageId}`, message);
  }

  /** An ephemeral follow-up to an interaction answered late (its token, not the bot's, authorises it). */
  async followUp(interactionToken: string, content: string): Promise<void> {
    await this.call(
      "POST",
      `/webhooks/${this.config.applicationId}/${interactionToken}`,
      { content, flags: EPHEMERAL, allowed_mentions: { parse: [] } },
      false,
    );
  }

  private async call<T>(method: string, path: string, body: unknown, asBot = true): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(asBot ? { authorization: `Bot ${this.config.botToken}` } : {}),
        },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new DiscordApiError("NetworkError", `Discord unreachable: ${String(error)}`, null);
    }
    if (response.ok) return (await response.json().catch(() => ({}))) as T;
    const detail = ((await response.json().catch(() => ({}))) as { message?: string }).message ?? "";
    const message = `Discord answered ${response.status} to ${method} ${path.split("/")[1]}${detail ? `: ${detail}` : ""}`;
    if (response.status === 429) throw new DiscordApiError("AdapterRateLimitError", message, 429);
    throw new DiscordApiError(
      response.status >= 500 ? "NetworkError" : "DiscordApiError",
      message,
      response.status,
    );
  }
}

/** Discord's flag for a message only the person who pressed sees. */
export const EPHEMERAL = 64;

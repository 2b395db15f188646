// `parley channels telegram --set-webhook <Parley URL>`: the one-time platform setup of a chat
// channel — tells Telegram where Parley's webhook is and the secret token to send with each call.

export interface TelegramWebhookOptions {
  parleyUrl: string;
  botToken: string;
  secretToken: string;
  /** The Bot API's address (a stand-in in tests). */
  apiBaseUrl: string;
}

/** Parses `--set-webhook URL [--bot-token T] [--secret-token S] [--api-base-url U]`, env as fallback. */
export function readTelegramArgs(
  args: string[],
  env: Record<string, string | undefined>,
): { ok: true; options: TelegramWebhookOptions } | { ok: false; message: string } {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i];
    const value = args[i + 1];
    if (!name?.startsWith("--") || value === undefined)
      return { ok: false, message: `expected --flag value, got ${name}` };
    flags.set(name.slice(2), value);
  }
  const parleyUrl = flags.get("set-webhook");
  if (!parleyUrl || !/^https?:\/\//.test(parleyUrl))
    return { ok: false, message: "--set-webhook needs Parley's https:// URL" };
  const botToken = flags.get("bot-token") ?? env.TELEGRAM_BOT_TOKEN;
  const secretToken = flags.get("secret-token") ?? env.TELEGRAM_WEBHOOK_SECRET_TOKEN;
  if (!botToken) return { ok: false, message: "--bot-token (or TELEGRAM_BOT_TOKEN) is required" };
  if (!secretToken)
    return { ok: false, message: "--secret-token (or TELEGRAM_WEBHOOK_SECRET_TOKEN) is required" };
  const apiBaseUrl = flags.get("api-base-url") ?? env.TELEGRAM_API_BASE_URL ?? "https://api.telegram.org";
  return { ok: true, options: { parleyUrl, botToken, secretToken, apiBaseUrl } };
}

/** Calls the Bot API's `setWebhook`; answers Telegram's description, or throws with it. */
export async function setTelegramWebhook(options: TelegramWebhookOptions): Promise<string> {
  const url = `${options.parleyUrl.replace(/\/+$/, "")}/api/channels/telegram`;
  const response = await fetch(
    `${options.apiBaseUrl.replace(/\/+$/, "")}/bot${options.botToken}/setWebhook`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url,
        secret_token: options.secretToken,
        // Only what Parley reads: messages (the link code) and button presses.
        allowed_updates: ["message", "callback_query"],
      }),
    },
  );
  const body = (await response.json().catch(() => ({}))) as { ok?: boolean; description?: string };
  if (!response.ok || !body.ok)
    throw new Error(`Telegram refused setWebhook: ${body.description ?? response.status}`);
  return `Telegram now sends this bot's updates to ${url}${body.description ? ` (${body.description})` : ""}`;
}

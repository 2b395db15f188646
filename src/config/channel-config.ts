// The chat platforms' part of the configuration: their variables, validated, and each platform's
// settings, null while its secrets are not all set (src/config.ts reads them with the rest).
import * as z from "zod";

/** An https origin (http only for loopback), with nothing after it but an optional "/". */
function isOrigin(value: string): boolean {
  // Zod runs a refinement even after `z.url()` refused the value.
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const bare = `${url.origin}/` === url.href || url.origin === value;
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return bare && (url.protocol === "https:" || (url.protocol === "http:" && loopback));
}

/** The platforms' variables' schemas, built only inside the configuration's reader (src/config.ts). */
export const channelVars = () => ({
  /**
   * The deployment's public origin (`https://parley.example.com`), which chat messages link to;
   * without it, the origin a platform's verified request reached.
   */
  PUBLIC_ORIGIN: z
    .url()
    .refine(isOrigin, "must be an origin such as https://parley.example.com (https, no path)")
    .transform((value) => new URL(value).origin)
    .optional(),
  TELEGRAM_BOT_TOKEN: z.string().min(1).optional(),
  TELEGRAM_WEBHOOK_SECRET_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,256}$/, "must be 16 to 256 characters of A-Z, a-z, 0-9, _ and -")
    .optional(),
  /** The Bot API's address; only a stand-in for tests changes it. */
  TELEGRAM_API_BASE_URL: z.url().optional(),
  /** The bot's @name, for the `t.me/<bot>?start=<code>` link shown while linking. */
  TELEGRAM_BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_]{3,64}$/, "must be the bot's user name without @")
    .optional(),
  SLACK_BOT_TOKEN: z
    .string()
    .regex(/^xoxb-/, "must be the app's bot token (xoxb-…)")
    .optional(),
  SLACK_SIGNING_SECRET: z.string().min(16, "must be the app's signing secret").optional(),
  /** The Web API's address (ending in /api/); only a stand-in for tests changes it. */
  SLACK_API_BASE_URL: z.url().optional(),
  DISCORD_APPLICATION_ID: z
    .string()
    .regex(/^\d{1,20}$/, "must be the application's numeric id")
    .optional(),
  DISCORD_PUBLIC_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be the application's 64-hex public key")
    .optional(),
  DISCORD_BOT_TOKEN: z.string().min(1).optional(),
  /** Discord's REST API address; only a stand-in for tests changes it. */
  DISCORD_API_BASE_URL: z.url().optional(),
});

/** The variables once validated (a type only: no schema is built for it). */
type ChannelVars = z.output<z.ZodObject<ReturnType<typeof channelVars>>>;

export interface TelegramConfig {
  botToken: string;
  /** PUBLIC_ORIGIN: links in messages use it; null: the origin of the request Telegram signed. */
  publicOrigin: string | null;
  /** Telegram sends it back in `X-Telegram-Bot-Api-Secret-Token` on every webhook call. */
  secretToken: string;
  apiBaseUrl: string | null;
  botUserName: string | null;
}

export interface SlackConfig {
  botToken: string;
  /** PUBLIC_ORIGIN: links in messages use it; null: the origin of the request Slack signed. */
  publicOrigin: string | null;
  /** Slack signs every request with it (`X-Slack-Signature`, checked with its timestamp). */
  signingSecret: string;
  apiBaseUrl: string | null;
}

export interface DiscordConfig {
  applicationId: string;
  /** PUBLIC_ORIGIN: links in messages use it; null: the origin of the request Discord signed. */
  publicOrigin: string | null;
  /** Verifies the Ed25519 signature Discord puts on every interaction. */
  publicKey: string;
  botToken: string;
  apiBaseUrl: string | null;
}

/** Each platform's settings; null ones are off and their routes 404. */
export interface ChannelConfigs {
  telegram: TelegramConfig | null;
  slack: SlackConfig | null;
  discord: DiscordConfig | null;
}

/** The platforms whose secrets are all set, from the validated variables. */
export function readChannels(e: ChannelVars): ChannelConfigs {
  return {
    telegram:
      e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_WEBHOOK_SECRET_TOKEN
        ? {
            botToken: e.TELEGRAM_BOT_TOKEN,
            publicOrigin: e.PUBLIC_ORIGIN ?? null,
            secretToken: e.TELEGRAM_WEBHOOK_SECRET_TOKEN,
            apiBaseUrl: e.TELEGRAM_API_BASE_URL ?? null,
            botUserName: e.TELEGRAM_BOT_USERNAME ?? null,
          }
        : null,
    slack:
      e.SLACK_BOT_TOKEN && e.SLACK_SIGNING_SECRET
        ? {
            botToken: e.SLACK_BOT_TOKEN,
            publicOrigin: e.PUBLIC_ORIGIN ?? null,
            signingSecret: e.SLACK_SIGNING_SECRET,
            apiBaseUrl: e.SLACK_API_BASE_URL ?? null,
          }
        : null,
    discord:
      e.DISCORD_APPLICATION_ID && e.DISCORD_PUBLIC_KEY && e.DISCORD_BOT_TOKEN
        ? {
            applicationId: e.DISCORD_APPLICATION_ID,
            publicOrigin: e.PUBLIC_ORIGIN ?? null,
            publicKey: e.DISCORD_PUBLIC_KEY.toLowerCase(),
            botToken: e.DISCORD_BOT_TOKEN,
            apiBaseUrl: e.DISCORD_API_BASE_URL ?? null,
          }
        : null,
  };
}

// Where the browser tests find chromium and the server, and whether they can run at all.
import { existsSync } from "node:fs";
import process from "node:process";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** True when there is a browser to drive; the suite skips (loudly) otherwise. */
export const hasChromium = existsSync(CHROMIUM_PATH);

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

declare module "vitest" {
  interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the wrangler dev started by global-setup. */
    baseUrl: string;
    /** That server's GATEWAY_TOKEN: the one person (the operator) of the browser tests. */
    gatewayToken: string;
    /** The Telegram Bot API stand-in's `http://127.0.0.1:<port>` (test/helpers/telegram-api.ts). */
    telegramApiUrl: string;
    slackApiUrl: string;
    /** The Discord REST API stand-in's `http://127.0.0.1:<port>` (test/helpers/discord-api.ts). */
    discordApiUrl: string;
    /** The private half of the run's Discord application key (a JWK), to sign interactions with. */
    discordSigningKey: string;
  }
}

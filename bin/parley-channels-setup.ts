// `parley channels <platform>`: points a chat platform at this gateway (a Telegram bot's webhook,
// a Discord application's command and endpoint).
import process from "node:process";
import { fail, USAGE } from "./cli-usage";
import { readTelegramArgs, setTelegramWebhook } from "./parley-channels";
import { readDiscordArgs, setUpDiscord } from "./parley-channels-discord";

export async function runChannels([platform, ...args]: string[]): Promise<void> {
  if (platform === "discord") return discordSetup(args);
  if (platform !== "telegram") fail(`channels: unknown platform ${platform ?? "(none)"}\n${USAGE}`, 2);
  const read = readTelegramArgs(args, process.env);
  if (!read.ok) fail(`${read.message}\n${USAGE}`, 2);
  try {
    process.stdout.write(`${await setTelegramWebhook(read.options)}\n`);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), 1);
  }
}

async function discordSetup(args: string[]): Promise<void> {
  const read = readDiscordArgs(args, process.env);
  if (!read.ok) fail(`${read.message}\n${USAGE}`, 2);
  try {
    process.stdout.write(`${await setUpDiscord(read.options)}\n`);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), 1);
  }
}

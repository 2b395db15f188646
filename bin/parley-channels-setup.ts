// `parley channels <platform>`: points a chat platform at this gateway (a Telegram bot's webhook,
// a Discord application's command and endpoint).
import process from "node:process";
import { fail, USAGE } from "./cli-usage";
import { readTelegramArgs, setTelegramWebhook } from "./parley-channels";
import { readDiscordArgs, setUpDiscord } from "./parley-channels-discord";

type Read<Options> = { ok: true; options: Options } | { ok: false; message: string };

export async function runChannels([platform, ...args]: string[]): Promise<void> {
  if (platform === "telegram") return setUp(readTelegramArgs(args, process.env), setTelegramWebhook);
  if (platform === "discord") return setUp(readDiscordArgs(args, process.env), setUpDiscord);
  fail(`channels: unknown platform ${platform ?? "(none)"}\n${USAGE}`, 2);
}

/** Runs one platform's set-up with the options its arguments gave, and prints what it did. */
async function setUp<Options>(
  read: Read<Options>,
  run: (options: Options) => Promise<string>,
): Promise<void> {
  if (!read.ok) fail(`${read.message}\n${USAGE}`, 2);
  try {
    process.stdout.write(`${await run(read.options)}\n`);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), 1);
  }
}

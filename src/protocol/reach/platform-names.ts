// How each chat platform names itself on receipts ("Approved by Ana · Telegram"); zod-free, so the
// page imports it as a value.
import type { ChatPlatform } from "./channels";

export const PLATFORM_NAMES: Readonly<Record<ChatPlatform, string>> = {
  telegram: "Telegram",
  slack: "Slack",
  discord: "Discord",
};

/** What the person sends the bot with their link code (Telegram's is also the default). */
export const LINK_COMMANDS: Readonly<Partial<Record<ChatPlatform, string>>> = {
  slack: "/parley link",
  discord: "/parley link",
};

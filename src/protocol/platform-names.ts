// How each chat platform names itself on receipts ("Approved by Ana · Telegram"); zod-free, so the
// page imports it as a value.
import type { ChatPlatform } from "./channels";

export const PLATFORM_NAMES: Readonly<Record<ChatPlatform, string>> = {
  telegram: "Telegram",
  discord: "Discord",
};

// The sender for each chat platform, loaded on the first delivery that needs it (the Chat SDK and
// its adapters stay out of an inbox that sends no chat message), and the channel object's word on
// which links still last.
import type { ChatSender } from "../channels/chat-sender";
import { configFor } from "../config";
import type { ChatPlatform } from "../protocol/reach/channels";
import type { ChatSendingPorts } from "./inbox-chat-sending";

// INVARIANT: one sender per env object and platform, rebuilt by a new instance from the same config.
const senders = new WeakMap<object, Map<ChatPlatform, ChatSender>>();

/** The platform's sender; null when its secrets are no longer set. */
export async function chatSenderFor(env: Env, platform: ChatPlatform): Promise<ChatSender | null> {
  const kept = senders.get(env)?.get(platform);
  if (kept) return kept;
  const sender = await loadSender(env, platform);
  if (!sender) return null;
  const byPlatform = senders.get(env) ?? new Map<ChatPlatform, ChatSender>();
  byPlatform.set(platform, sender);
  senders.set(env, byPlatform);
  return sender;
}

async function loadSender(env: Env, platform: ChatPlatform): Promise<ChatSender | null> {
  const { telegram, slack, discord } = configFor(env).channels;
  switch (platform) {
    case "telegram":
      return telegram && (await import("../channels/telegram/telegram-adapter")).telegramSender(telegram);
    case "slack":
      return slack && (await import("../channels/slack/slack-adapter")).slackSender(slack);
    case "discord":
      return discord && (await import("../channels/discord/discord-adapter")).discordSender(discord);
  }
}

/** What sending chat rows needs of the Worker, for the alarm and for sending at once alike. */
export const chatSendingPorts = (env: Env): ChatSendingPorts => ({
  senderFor: (platform) => chatSenderFor(env, platform),
  liveLinks: (linkIds) => liveChatLinks(env, linkIds),
});

/** Which of `linkIds` are an account's link now, as the channel object (who each account is) says. */
export async function liveChatLinks(env: Env, linkIds: string[]): Promise<string[]> {
  const { channelStub } = await import("../channels/channel-object");
  return channelStub(env).liveLinks(linkIds);
}

/** A removed approver's accounts are unlinked in the channel object too (their presses already answer nothing). */
export async function unlinkApproverAccounts(env: Env, approverId: string): Promise<void> {
  const { channelStub } = await import("../channels/channel-object");
  await channelStub(env).unlinkApprover(approverId);
}

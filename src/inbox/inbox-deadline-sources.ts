// The inbox's deadlines as sources of its one alarm (src/objects/deadline-loop.ts), drained in this
// order: pushes that are due, chat deliveries that are due, and inbox links that expired (their
// open streams and sockets close). Each says when it is next due and is idempotent when it is not.

import type { ChatSender } from "../channels/chat-sender";
import type { DeadlineSource } from "../objects/deadline-source";
import type { ChatPlatform } from "../protocol/channels";
import type { InboxChat } from "./inbox-chat";
import type { InboxLinks } from "./inbox-links";
import type { InboxPush } from "./inbox-push";

/** What the inbox object lends its deadline sources. */
export interface InboxDeadlineHost {
  push: InboxPush;
  chat: InboxChat;
  links: InboxLinks;
  chatSenderFor(platform: ChatPlatform): Promise<ChatSender | null>;
  /** Ends the streams and sockets of an expired link. */
  closeExpired(linkId: string): void;
}

export function inboxDeadlineSources(host: InboxDeadlineHost): DeadlineSource[] {
  return [
    {
      name: "pushes",
      next: () => host.push.nextDue(),
      fire: async (now) => {
        await host.push.deliverDue(now);
        return undefined;
      },
    },
    {
      name: "chat deliveries",
      next: () => host.chat.nextDue(),
      fire: async (now) => {
        await host.chat.deliverDue(now, host.chatSenderFor);
        return undefined;
      },
    },
    {
      name: "link expiry",
      next: () => host.links.nextExpiry(),
      fire: (now) => {
        for (const linkId of host.links.takeExpired(now)) {
          host.push.forgetLink(linkId);
          host.closeExpired(linkId);
        }
        return undefined;
      },
    },
  ];
}

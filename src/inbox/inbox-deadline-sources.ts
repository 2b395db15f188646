// The inbox's deadlines as sources of its one alarm (src/objects/deadline-loop.ts), drained in this
// order: pushes that are due, chat deliveries that are due, chat rows past their retention, and
// inbox links that expired (their open streams and sockets close). Each says when it is next due
// and is idempotent when it is not.

import type { DeadlineSource } from "../objects/deadline-source";
import type { InboxChat } from "./inbox-chat";
import type { ChatSendingPorts } from "./inbox-chat-sending";
import type { InboxLinks } from "./inbox-links";
import type { InboxPush } from "./inbox-push";

/** What the inbox object lends its deadline sources. */
export interface InboxDeadlineHost {
  push: InboxPush;
  chat: InboxChat;
  links: InboxLinks;
  /** Each platform's sender, and which chat links still last. */
  chatPorts: ChatSendingPorts;
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
        await host.chat.deliverDue(now, host.chatPorts);
        return undefined;
      },
    },
    {
      name: "chat retention",
      next: () => host.chat.retention.nextPrune(),
      fire: (now) => {
        host.chat.retention.prune(now);
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

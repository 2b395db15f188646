// Share links that reach their expiry: their live sockets and streams close, their push
// subscriptions go.

import type { DeadlineSource } from "../../objects/deadline-source";
import { expireLinks, type LinkAdminHost } from "../link-admin";
import type { ShareLinks } from "../stores/share-links";

export function linkExpirySource(links: ShareLinks, admin: () => LinkAdminHost): DeadlineSource {
  return {
    name: "link expiry",
    next: () => links.nextExpiry(),
    fire(now) {
      expireLinks(admin(), now);
      return undefined;
    },
  };
}

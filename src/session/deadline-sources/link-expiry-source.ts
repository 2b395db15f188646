// Share links that reach their expiry: their live sockets and streams close, their push
// subscriptions go.
import { expireLinks, type LinkAdminHost } from "../link-admin";
import type { ShareLinks } from "../share-links";
import type { DeadlineSource } from "./deadline-source";

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

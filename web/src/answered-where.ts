// The end of a receipt: where and by whom a card was answered, when not on this device.

import { namesSomeone } from "../../src/protocol/access/people";
import type { InteractionResolution } from "../../src/protocol/index";

/**
 * The device id a notification's Approve or Deny answers as (the server's PUSH_DEVICE,
 * src/session/inbox-actions.ts): no page was open, so the receipt names the notification.
 */
const NOTIFICATION_DEVICE = "push";

/** `" on another device"`, `" by Ana from a notification"`, or `""` when this device answered. */
export function answeredWhere(
  resolution: Pick<InteractionResolution, "resolvedBy" | "answeredBy">,
  deviceId: string | null,
): string {
  if (resolution.resolvedBy === null || resolution.resolvedBy === deviceId) return "";
  const who = resolution.answeredBy;
  const where = resolution.resolvedBy === NOTIFICATION_DEVICE ? "from a notification" : "on another device";
  return namesSomeone(who) ? ` by ${who} ${where}` : ` ${where}`;
}

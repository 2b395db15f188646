// The end of a receipt: where and by whom a card was answered, when not on this device.
import type { InteractionResolution } from "../../src/protocol/index";
import { namesSomeone } from "../../src/protocol/people";

/** `" on another device"`, `" by Ana on another device"`, or `""` when this device answered. */
export function answeredWhere(
  resolution: Pick<InteractionResolution, "resolvedBy" | "answeredBy">,
  deviceId: string | null,
): string {
  if (resolution.resolvedBy === null || resolution.resolvedBy === deviceId) return "";
  const who = resolution.answeredBy;
  return namesSomeone(who) ? ` by ${who} on another device` : " on another device";
}

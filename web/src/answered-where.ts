// The end of a receipt: where and by whom a card was answered, when not on this device.
import type { InteractionResolution } from "../../src/protocol/index";

// A deployment without Cloudflare Access has one person ("operator" with a gateway token, else
// "local"): naming them on a receipt tells the reader nothing, so only the device is mentioned.
const ONE_PERSON_NAMES = new Set(["operator", "local"]);

/** `" on another device"`, `" by Ana on another device"`, or `""` when this device answered. */
export function answeredWhere(
  resolution: Pick<InteractionResolution, "resolvedBy" | "answeredBy">,
  deviceId: string | null,
): string {
  if (resolution.resolvedBy === null || resolution.resolvedBy === deviceId) return "";
  const who = resolution.answeredBy;
  return who && !ONE_PERSON_NAMES.has(who) ? ` by ${who} on another device` : " on another device";
}

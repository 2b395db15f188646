// Who may register and remove a device's push subscription. A subscription belongs to the token that
// made it, the owner's or one share link's: another link may neither replace nor remove it (the
// device id is no secret, receipts name it), the owner may do both, and a dead link's is free.
import {
  MAX_PUSH_DEVICES,
  MAX_PUSH_DEVICES_PER_LINK,
  type SqlSubscriptionStore,
} from "../notify/subscription-store";
import type { Outcome } from "../objects/outcome";
import type { Access } from "../protocol/access/access";
import type { PushSubscriptionBody } from "../protocol/reach/notify";
import type { ErrorBody } from "../protocol/wire/errors";
import type { ShareLinks } from "./stores/share-links";

export interface PushSubscriptionDeps {
  subscriptions: SqlSubscriptionStore;
  links: Pick<ShareLinks, "isLive">;
}

/** Stores the device's subscription for `access`, replacing an older one only where it may. */
export function subscribePush(
  deps: PushSubscriptionDeps,
  body: PushSubscriptionBody,
  access: Access,
  sessionUrl: string,
): Outcome<{ deviceId: string }> {
  const held = deps.subscriptions.holder(body.deviceId);
  if (held !== undefined && !mayTouch(deps, access, held)) return refuse(notYours(body.deviceId, "replace"));
  if (held === undefined && deps.subscriptions.deviceIds().length >= MAX_PUSH_DEVICES) {
    return refuse({
      code: "invalid_input",
      message: `A session takes push subscriptions from at most ${MAX_PUSH_DEVICES} devices`,
    });
  }
  const { linkId } = access;
  if (
    linkId !== null &&
    held !== linkId &&
    deps.subscriptions.countByLink(linkId) >= MAX_PUSH_DEVICES_PER_LINK
  ) {
    return refuse({
      code: "invalid_input",
      message: `A share link may subscribe at most ${MAX_PUSH_DEVICES_PER_LINK} devices to push`,
    });
  }
  deps.subscriptions.put(
    body.deviceId,
    body.subscription,
    { url: sessionUrl, linkId: access.linkId },
    body.actions !== false,
  );
  return { ok: true, result: { deviceId: body.deviceId } };
}

/** Removes the device's subscription if `access` may; `removed: false` when there was none. */
export function unsubscribePush(
  deps: PushSubscriptionDeps,
  deviceId: string,
  access: Access,
): Outcome<{ removed: boolean }> {
  const held = deps.subscriptions.holder(deviceId);
  if (held === undefined) return { ok: true, result: { removed: false } };
  if (!mayTouch(deps, access, held)) return refuse(notYours(deviceId, "remove"));
  return { ok: true, result: { removed: deps.subscriptions.delete(deviceId) } };
}

/** The owner may touch any subscription; a link its own, or one whose link was revoked or expired. */
function mayTouch(deps: PushSubscriptionDeps, access: Access, heldBy: string | null): boolean {
  if (access.role === "owner" || heldBy === access.linkId) return true;
  return heldBy !== null && !deps.links.isLive(heldBy);
}

function notYours(deviceId: string, verb: string): ErrorBody {
  return {
    code: "not_your_subscription",
    message: `Device ${deviceId} subscribed to push with another token; only that token or the session's owner may ${verb} it`,
  };
}

function refuse(error: ErrorBody): { ok: false; error: ErrorBody } {
  return { ok: false, error };
}

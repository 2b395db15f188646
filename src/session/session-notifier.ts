// The session's notifier, wired to its stores: card details from the interactions, the share link
// from meta, and the one alarm for delivery deadlines.
import { z } from "zod";
import type { Config } from "../config";
import { Notifier } from "../notify/notifier";
import { sessionKinds } from "./session-runtime";
import type { SessionState } from "./session-state";

export function sessionNotifier(
  state: SessionState,
  config: Config,
  isConnected: (deviceId: string) => boolean,
): Notifier {
  return new Notifier({
    config,
    subscriptions: state.subscriptions,
    deliveries: state.deliveries,
    card: (interactionId) => {
      const record = state.interactions.get(interactionId);
      return record && { toolName: record.toolName, request: record.request, expiresAt: record.deadline };
    },
    session: () => ({
      sessionId: state.meta.get("session_id", z.string()) ?? "",
      shareUrl: state.meta.get("share_url", z.string()) ?? "",
    }),
    summary: (kind, toolName, request) => sessionKinds.summary(kind, toolName, request),
    linkIsLive: (linkId) => state.links.isLive(linkId),
    now: () => state.clock.now(),
    isConnected,
    rearm: () => state.deadlines.rearm(),
  });
}

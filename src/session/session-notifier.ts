// The session's notifier, wired to its stores: card details from the interactions, the page's
// address from meta, the webhook's own answer link, the answer token of a push its notification may
// answer (as the session's creator), and the one alarm for delivery deadlines.
import type { Config } from "../config";
import { Notifier } from "../notify/notifier";
import { pushAnswerTokenFor } from "../tokens/push-answer-token";
import { newSessionId } from "../tokens/session-token";
import { signShareToken } from "../tokens/share-token";
import { sessionKinds } from "./session-kinds";
import type { SessionState } from "./session-state";

export function sessionNotifier(
  state: SessionState,
  config: Config,
  isConnected: (deviceId: string, linkId: string | null) => boolean,
): Notifier {
  return new Notifier({
    config,
    subscriptions: state.subscriptions,
    deliveries: state.deliveries,
    card: (interactionId) => {
      const record = state.interactions.get(interactionId);
      return record && { toolName: record.toolName, request: record.request, expiresAt: record.deadline };
    },
    session: () => ({ sessionId: sessionId(state), pageUrl: pageUrl(state) }),
    webhookPageUrl: async (webhookUrl) => {
      // Minted before the first await, so deliveries sent side by side share one link.
      const link = state.links.webhookLink(webhookUrl, newSessionId);
      if (!link) return null;
      const claims = { linkId: link.linkId, role: link.role, expiresAt: link.expiresAt };
      const token = await signShareToken(config.sessionSecret, sessionId(state), claims);
      return `${pageUrl(state)}?token=${token}`;
    },
    summary: (kind, toolName, request) => sessionKinds.summary(kind, toolName, request),
    linkIsLive: (linkId) => state.links.isLive(linkId),
    now: () => state.clock.now(),
    isConnected,
    rearm: () => state.deadlines.rearm(),
    // A device subscribed with the owner's credential answers as the session's creator, the one
    // person a push answer may count as (src/session/inbox-actions.ts); a session without one gets none.
    pushExtras: async (notice, device) => {
      const person = state.creator();
      const answerToken = await pushAnswerTokenFor(config.sessionSecret, notice, { ...device, person });
      return answerToken ? { answerToken } : {};
    },
  });
}

function sessionId(state: SessionState): string {
  return state.meta.string("session_id") ?? "";
}

/** The session's page without a token: the origin the session was created on, and its id. */
function pageUrl(state: SessionState): string {
  const shareUrl = state.meta.string("share_url") ?? "";
  const origin = URL.canParse(shareUrl) ? new URL(shareUrl).origin : "";
  return `${origin}/#/s/${sessionId(state)}`;
}

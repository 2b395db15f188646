// The RPC surface the Worker calls on a session's Durable Object. SessionObject implements it, and
// its generated stub is assignable to it without a cast, so the compiler checks both ends. Each
// method answers a typed Outcome, read with `unwrap` (src/objects/outcome.ts).

import type { Outcome } from "../objects/outcome";
import type { Access, ShareLinkView } from "../protocol/access";
import type { AgentMessagesPage } from "../protocol/agent-messages";
import type { SessionCommand } from "../protocol/commands";
import type { ExternalInteraction } from "../protocol/external";
import type { EventsPage } from "../protocol/http";
import type { DeliveryView, PushSubscriptionBody } from "../protocol/notify";
import type { SessionSnapshot } from "../protocol/session";
import type { InboxAction, InboxActor } from "./inbox-actions";
import type { SessionExport } from "./session-export";
import type { SessionInit, SessionStats } from "./session-types";

export interface SessionRpc extends Rpc.DurableObjectBranded {
  create(init: SessionInit): Promise<Outcome<{ created: boolean }>>;
  snapshot(access?: Access): Promise<Outcome<SessionSnapshot>>;
  eventsPage(after: number, limit: number, access?: Access): Promise<Outcome<EventsPage>>;
  /** A command's result depends on the command (see src/session/command-handler.ts). */
  command(command: SessionCommand, deviceId: string | null, access?: Access): Promise<Outcome>;
  stats(access?: Access): Promise<Outcome<SessionStats>>;
  fromInbox(actor: InboxActor, action: InboxAction): Promise<Outcome>;
  addLink(
    link: Pick<ShareLinkView, "linkId" | "role" | "label" | "expiresAt">,
    access?: Access,
  ): Promise<Outcome<ShareLinkView>>;
  listLinks(access?: Access): Promise<Outcome<{ links: ShareLinkView[] }>>;
  revokeLink(linkId: string, access?: Access): Promise<Outcome<ShareLinkView>>;
  destroy(access?: Access): Promise<Outcome<null>>;
  exportSession(access?: Access): Promise<Outcome<SessionExport>>;
  rotateOwnerToken(access: Access): Promise<Outcome<{ version: number }>>;
  subscribePush(
    body: PushSubscriptionBody,
    access: Access,
    sessionUrl: string,
  ): Promise<Outcome<{ deviceId: string }>>;
  unsubscribePush(deviceId: string, access?: Access): Promise<Outcome<{ removed: boolean }>>;
  deliveries(access?: Access): Promise<Outcome<{ deliveries: DeliveryView[] }>>;
  creator(): Promise<string | null>;
  externalInteraction(
    interactionId: string,
    waitMs: number,
    access: Access,
  ): Promise<Outcome<ExternalInteraction>>;
  /** The person's messages for an external agent's bridge, after waiting up to `waitMs` for one. */
  agentMessages(
    query: { after: string | undefined; waitMs: number },
    access: Access,
  ): Promise<Outcome<AgentMessagesPage>>;
  ensureAgentLink(
    link: Pick<ShareLinkView, "linkId" | "label">,
    fallbackLinkId: string,
  ): Promise<Outcome<ShareLinkView>>;
  /** Revokes an agent link whose agent key was revoked, whatever the owner token's version. */
  revokeAgentLink(linkId: string): Promise<Outcome<ShareLinkView>>;
  fetch(request: Request): Promise<Response>;
}

export function sessionStub(env: Env, sessionId: string): SessionRpc {
  return env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
}

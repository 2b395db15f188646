// What the Worker (and the inbox, and the channel object) may call on a session's Durable Object
// (src/session/session-object.ts), split by concern, and the shapes that cross it; what the inbox
// hands it has a room of its own (session-inbox.ts). SessionObject implements it and its generated
// stub is assignable to it without a cast, so the compiler checks both ends. Each method answers a
// typed Outcome, read with `unwrap` (src/objects/outcome.ts). Types only.
import type { MessageParam } from "../../model/model-client";
import type { ScriptedReply } from "../../model/scripted-reply";
import type { Access, ShareLinkView } from "../../protocol/access/access";
import type { DeadlinePolicies } from "../../protocol/cards/deadline-policy";
import type { AgentMessagesPage } from "../../protocol/external/agent-messages";
import type { ExternalInteraction } from "../../protocol/external/external";
import type { DeliveryView, PushSubscriptionBody } from "../../protocol/reach/notify";
import type { PermissionMode, SessionSnapshot } from "../../protocol/session/session";
import type { SessionCommand } from "../../protocol/wire/commands";
import type { EventsPage } from "../../protocol/wire/http";
import type { Outcome } from "../outcome";
import type { InboxAction, InboxActor } from "./session-inbox";

/**
 * What the Worker hands a new session, once, right after it picks its id (src/session/session-types.ts
 * holds its schema, checked against this).
 */
export interface SessionInit {
  sessionId: string;
  permissionMode: PermissionMode;
  systemPrompt: string | null;
  script: ScriptedReply[] | null;
  interactionTimeoutMs: number | null;
  /** The link that opens this session (with its token), for notifications sent from the object. */
  shareUrl?: string | null;
  /** The configured MCP servers this session uses, by name (checked by the Worker). */
  mcpServers?: string[];
  /** Who created the session (`personOf`), kept in its meta. */
  creator?: string;
  /** Set for a session whose agent runs elsewhere: no model loop runs in it. */
  agent?: SessionAgentInit;
  /** The session's own deadline policies, over the deployment's. */
  deadlinePolicies?: DeadlinePolicies;
}

/** The agent of a session whose agent runs elsewhere, as its creation names it. */
export interface SessionAgentInit {
  name: string;
  title: string | null;
  key: string | null;
  /** The agent key that created the session, if one did: "this agent" grants are bound to it. */
  agentKeyId: string | null;
  /** Where it runs, when known: its working folder and the machine whose daemon started it. */
  folder: string | null;
  machine: string | null;
}

/** What one instance of the session ran and holds (`GET /api/sessions/:id/stats`). */
export interface SessionStats {
  rowsWritten: number;
  rowsRead: number;
  /** SQL statements this instance ran (reading these stats runs a few of its own). */
  statements: number;
  storageBytes: number;
  events: number;
  eventsByType: Record<string, number>;
  messages: number;
  /** Open WebSockets and SSE streams right now. */
  sockets: number;
  streams: number;
}

/**
 * `GET /api/sessions/:id/export` (src/session/session-export.ts): the transcript exactly as the
 * model saw it and the whole event log, its events as stored, each a frame a device was sent.
 */
export interface SessionExport {
  format: "parley.session-export.v1";
  exportedAt: number;
  snapshot: SessionSnapshot;
  shareLinks: ShareLinkView[];
  transcript: MessageParam[];
  events: unknown[];
}

/** The session's life and what it holds: made once, read, exported, erased. */
export interface SessionLifeRpc {
  create(init: SessionInit): Promise<Outcome<{ created: boolean }>>;
  snapshot(access?: Access): Promise<Outcome<SessionSnapshot>>;
  eventsPage(after: number, limit: number, access?: Access): Promise<Outcome<EventsPage>>;
  stats(access?: Access): Promise<Outcome<SessionStats>>;
  exportSession(access?: Access): Promise<Outcome<SessionExport>>;
  destroy(access?: Access): Promise<Outcome<null>>;
  creator(): Promise<string | null>;
  /** A device's socket or event stream; the Worker states who connected in a header. */
  fetch(request: Request): Promise<Response>;
}

/** Commands from outside a socket: the API's, and those the person's inbox relays. */
export interface SessionCommandsRpc {
  /** A command's result depends on the command (see src/session/command-handler.ts). */
  command(command: SessionCommand, deviceId: string | null, access?: Access): Promise<Outcome>;
  fromInbox(actor: InboxActor, action: InboxAction): Promise<Outcome>;
}

/** Who may open the session: share links, the owner token's version, agent links. */
export interface SessionLinksRpc {
  addLink(
    link: Pick<ShareLinkView, "linkId" | "role" | "label" | "expiresAt">,
    access?: Access,
  ): Promise<Outcome<ShareLinkView>>;
  listLinks(access?: Access): Promise<Outcome<{ links: ShareLinkView[] }>>;
  revokeLink(linkId: string, access?: Access): Promise<Outcome<ShareLinkView>>;
  rotateOwnerToken(access: Access): Promise<Outcome<{ version: number }>>;
  ensureAgentLink(
    link: Pick<ShareLinkView, "linkId" | "label">,
    fallbackLinkId: string,
  ): Promise<Outcome<ShareLinkView>>;
  /** Revokes an agent link whose agent key was revoked, whatever the owner token's version. */
  revokeAgentLink(linkId: string): Promise<Outcome<ShareLinkView>>;
}

/** Pushes to the session's devices and the log of what was delivered. */
export interface SessionPushRpc {
  subscribePush(
    body: PushSubscriptionBody,
    access: Access,
    sessionUrl: string,
  ): Promise<Outcome<{ deviceId: string }>>;
  unsubscribePush(deviceId: string, access?: Access): Promise<Outcome<{ removed: boolean }>>;
  deliveries(access?: Access): Promise<Outcome<{ deliveries: DeliveryView[] }>>;
}

/** What an external agent's bridge reads: its cards once resolved, and the person's messages. */
export interface SessionExternalRpc {
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
}

export interface SessionRpc
  extends Rpc.DurableObjectBranded,
    SessionLifeRpc,
    SessionCommandsRpc,
    SessionLinksRpc,
    SessionPushRpc,
    SessionExternalRpc {}

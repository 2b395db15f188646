// Worker entry: the HTTP app (static page via Workers Assets, API via Hono) and the four Durable
// Objects (session, inbox, channels, machines). Each loads on first use (src/object-shell.ts says
// why): an isolate that only routes never builds an object's parts, and an object's isolate never
// builds the router's.
import type { ChannelObject as Channel } from "./channels/channel-object";
import type { InboxObject as Inbox } from "./inbox/inbox-object";
import type { MachinesObject as Machines } from "./machines/machine-object";
import { HANDLERS, objectShell } from "./object-shell";
import type { ChannelRpc } from "./objects/contracts/channel";
import type { InboxRpc } from "./objects/contracts/inbox";
import type { MachinesRpc } from "./objects/contracts/machines";
import type { SessionRpc } from "./objects/contracts/session";
import type { app as App } from "./router/app";
import type { SessionObject as Session } from "./session/session-object";

let app: typeof App | null = null;

/** The router's module, loaded by the first request or email (one import, so one chunk). */
const router = () => import("./router/app");

export default {
  async fetch(request, env, ctx) {
    app ??= (await router()).app;
    return app.fetch(request, env, ctx);
  },
  // Email Routing: a reply to a card's email answers it (src/email/email-reply.ts).
  async email(message, env) {
    await (await router()).receiveReply(message, env);
  },
} satisfies ExportedHandler<Env>;

const SESSION_RPC = [
  "create",
  "snapshot",
  "eventsPage",
  "command",
  "fromInbox",
  "stats",
  "addLink",
  "listLinks",
  "revokeLink",
  "destroy",
  "exportSession",
  "rotateOwnerToken",
  "subscribePush",
  "unsubscribePush",
  "deliveries",
  "creator",
  "externalInteraction",
  "agentMessages",
  "ensureAgentLink",
  "revokeAgentLink",
] as const satisfies readonly (keyof SessionRpc)[];

const INBOX_RPC = [
  "apply",
  "emailAddresses",
  "forget",
  "view",
  "holds",
  "addLink",
  "listLinks",
  "linkIsLive",
  "noteOpened",
  "openedThrough",
  "revokeLink",
  "closeStreams",
  "subscribePush",
  "unsubscribePush",
  "approverDevices",
  "stats",
  "deliveries",
  "addChatLink",
  "removeChatLink",
  "chatCard",
  "chatMessageSession",
  "chatTextWanted",
  "answerAsAccount",
  "addAgentKey",
  "listAgentKeys",
  "checkAgentKey",
  "revokeAgentKey",
  "noteAgentLink",
  "keyedSessionSalt",
  "renewKeyedSessionSalt",
  "spendSignInCode",
  "addGrant",
  "listGrants",
  "revokeGrant",
  "decideByGrants",
  "decisions",
  "allDecisions",
  "invitePerson",
  "redeemInvite",
  "people",
  "approvers",
  "removePerson",
  "answering",
] as const satisfies readonly (keyof InboxRpc)[];

const CHANNEL_RPC = [
  "mintLinkCode",
  "listLinks",
  "unlink",
  "redeemSeeAll",
  "seeAllPageIsLive",
  "liveLinks",
  "unlinkApprover",
] as const satisfies readonly (keyof ChannelRpc)[];

const MACHINES_RPC = [
  "list",
  "check",
  "start",
  "stop",
  "revoke",
] as const satisfies readonly (keyof MachinesRpc)[];

// A method added to an RPC interface and not to its list fails to compile here.
const everySessionMethod: Exclude<
  keyof SessionRpc,
  (typeof SESSION_RPC)[number] | "fetch" | keyof Rpc.DurableObjectBranded
> extends never
  ? true
  : never = true;
const everyInboxMethod: Exclude<
  keyof InboxRpc,
  (typeof INBOX_RPC)[number] | "fetch" | keyof Rpc.DurableObjectBranded
> extends never
  ? true
  : never = true;
const everyChannelMethod: Exclude<
  keyof ChannelRpc,
  (typeof CHANNEL_RPC)[number] | "fetch" | keyof Rpc.DurableObjectBranded
> extends never
  ? true
  : never = true;
const everyMachinesMethod: Exclude<
  keyof MachinesRpc,
  (typeof MACHINES_RPC)[number] | "fetch" | keyof Rpc.DurableObjectBranded
> extends never
  ? true
  : never = true;
void everyMachinesMethod;
void everyChannelMethod;
void everySessionMethod;
void everyInboxMethod;

export const SessionObject = objectShell<Session>(
  [...SESSION_RPC, ...HANDLERS],
  async () => (await import("./session/session-object")).SessionObject,
);

export const InboxObject = objectShell<Inbox>(
  [...INBOX_RPC, ...HANDLERS],
  async () => (await import("./inbox/inbox-object")).InboxObject,
);

export const ChannelObject = objectShell<Channel>(
  [...CHANNEL_RPC, ...HANDLERS],
  async () => (await import("./channels/channel-object")).ChannelObject,
);

export const MachinesObject = objectShell<Machines>(
  [...MACHINES_RPC, ...HANDLERS],
  async () => (await import("./machines/machine-object")).MachinesObject,
);

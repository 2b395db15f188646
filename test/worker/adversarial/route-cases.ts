// How the hostile-input suite treats every route the Worker registers (read from the app itself, so
// a route added without a case here fails the suite): which bodies would act (and so are not
// hostile), which path parameters and query values to spoil, and which routes act on the
// credential alone (covered by hostile credentials, and by their own tests for what they do).
import type * as z from "zod";
import { MintLinkBody } from "../../../src/protocol/access/access";
import { OpenInteractionBody, PostProgressBody } from "../../../src/protocol/external/external";
import { CreateGrantBody } from "../../../src/protocol/grants/grants";
import { MintInboxLinkBody } from "../../../src/protocol/inbox/inbox-links";
import { MintAgentKeyBody } from "../../../src/protocol/machines/agent-keys";
import { PushSubscriptionBody } from "../../../src/protocol/reach/notify";
import {
  ApproveCommand,
  ClientCommand,
  DecideBatchCommand,
  DenyCommand,
  EndAgentCommand,
  ExtendDeadlineCommand,
  RespondBody,
  SendMessageCommand,
  SetDeadlinePoliciesCommand,
  SubmitAnswersCommand,
} from "../../../src/protocol/wire/commands";
import { CreateSessionBody, PatchSessionBody } from "../../../src/protocol/wire/http";
import { app } from "../../../src/router/app";
import { PENDING_ID } from "./hostile-input";

export type RouteCase =
  /** Hostile bodies, except those `acts` says a person could legitimately send. */
  | { kind: "body"; acts: (value: unknown) => boolean }
  /** Hostile path parameters (and query values); the body is not read. */
  | { kind: "params" }
  /** Hostile query values; `ok` when the route answers any query (it has none to refuse). */
  | { kind: "query"; ok?: true }
  /** Acts on the credential alone: only hostile credentials are sent. */
  | { kind: "credential-only"; why: string };

const bodyOf = (command: z.ZodObject) => command.omit({ type: true, requestId: true });
const valid = (schema: z.ZodType) => (value: unknown) => schema.safeParse(value).success;

/** A command body that would act on the paused session: well-formed and aimed at something real. */
export function wouldAct(command: unknown): boolean {
  const parsed = ClientCommand.safeParse(command);
  if (!parsed.success) return false;
  const { type } = parsed.data;
  if (["send_message", "cancel", "set_permission_mode", "decide_batch"].includes(type)) return true;
  if (["open_interaction", "post_progress"].includes(type)) return true;
  if (["set_deadline_policies"].includes(type)) return true;
  if (parsed.data.type === "extend_deadline") return parsed.data.interactionId === PENDING_ID;
  return "toolCallId" in parsed.data && parsed.data.toolCallId === PENDING_ID && type !== "submit_answers";
}

const command = (type: string, schema: z.ZodType) => ({
  kind: "body" as const,
  acts: (value: unknown) =>
    valid(schema)(value) && wouldAct({ ...(typeof value === "object" && value !== null ? value : {}), type }),
});

const S = "/api/sessions/:id";

export const ROUTE_CASES: Record<string, RouteCase> = {
  "POST /api/sessions": { kind: "body", acts: valid(CreateSessionBody) },
  "GET /api/notify": { kind: "query", ok: true },
  [`POST ${S}/links`]: { kind: "body", acts: valid(MintLinkBody) },
  [`GET ${S}/links`]: { kind: "query", ok: true },
  [`DELETE ${S}/links/:linkId`]: { kind: "params" },
  [`POST ${S}/owner-token`]: {
    kind: "credential-only",
    why: "rotates on the owner's token alone (test/worker/access/owner-token-rotation.test.ts)",
  },
  [`POST ${S}/ws-ticket`]: { kind: "query", ok: true },
  [`POST ${S}/interactions`]: { kind: "body", acts: valid(OpenInteractionBody) },
  [`GET ${S}/interactions/:interactionId`]: { kind: "params" },
  [`DELETE ${S}/interactions/:interactionId`]: { kind: "params" },
  [`POST ${S}/progress`]: { kind: "body", acts: valid(PostProgressBody) },
  [`GET ${S}/messages`]: { kind: "query" },
  [`POST ${S}/messages/:messageId/delivered`]: { kind: "params" },
  [`GET ${S}`]: { kind: "query", ok: true },
  [`DELETE ${S}`]: {
    kind: "credential-only",
    why: "deletes on the owner's token alone (test/worker/access/session-lifecycle.test.ts)",
  },
  [`GET ${S}/export`]: { kind: "query", ok: true },
  [`PATCH ${S}`]: { kind: "body", acts: valid(PatchSessionBody) },
  [`GET ${S}/events`]: { kind: "query" },
  [`GET ${S}/stats`]: { kind: "query", ok: true },
  [`GET ${S}/events/stream`]: { kind: "query" },
  [`POST ${S}/push-subscriptions`]: { kind: "body", acts: valid(PushSubscriptionBody) },
  [`DELETE ${S}/push-subscriptions/:deviceId`]: { kind: "params" },
  [`GET ${S}/deliveries`]: { kind: "query", ok: true },
  [`GET ${S}/ws`]: { kind: "query" },
  [`POST ${S}/messages`]: command("send_message", bodyOf(SendMessageCommand)),
  [`POST ${S}/submit-answers`]: command("submit_answers", bodyOf(SubmitAnswersCommand)),
  [`POST ${S}/approve`]: command("approve", bodyOf(ApproveCommand)),
  [`POST ${S}/deny`]: command("deny", bodyOf(DenyCommand)),
  [`POST ${S}/respond`]: command("respond", RespondBody),
  [`POST ${S}/decide-batch`]: command("decide_batch", bodyOf(DecideBatchCommand)),
  [`POST ${S}/cancel`]: { kind: "body", acts: (value) => isEmptyObject(value) },
  [`POST ${S}/end-agent`]: command("end_agent", bodyOf(EndAgentCommand)),
  [`POST ${S}/retry-now`]: { kind: "body", acts: (value) => isEmptyObject(value) },
  [`POST ${S}/extend-deadline`]: command("extend_deadline", bodyOf(ExtendDeadlineCommand)),
  [`POST ${S}/deadline-policies`]: command("set_deadline_policies", bodyOf(SetDeadlinePoliciesCommand)),
  // Only the person in person stops a session, and this runtime has no person: the session's own
  // token, with any body, stops nothing.
  [`POST ${S}/stop`]: { kind: "body", acts: () => false },
  "POST /api/inbox/cards/:sessionId/:interactionId/respond": { kind: "body", acts: () => false },
  "POST /api/inbox/cards/:sessionId/:interactionId/extend": { kind: "params" },
  "POST /api/inbox/links": { kind: "body", acts: valid(MintInboxLinkBody) },
  "GET /api/inbox/links": { kind: "query", ok: true },
  "DELETE /api/inbox/links/:linkId": { kind: "params" },
  "GET /api/inbox": { kind: "query", ok: true },
  "GET /api/inbox/stream": { kind: "query" },
  "GET /api/inbox/ws": { kind: "query" },
  "POST /api/inbox/ws-ticket": { kind: "query", ok: true },
  "GET /api/inbox/stats": { kind: "query", ok: true },
  "GET /api/inbox/deliveries": { kind: "query", ok: true },
  "POST /api/inbox/push-subscriptions": { kind: "body", acts: valid(PushSubscriptionBody) },
  "DELETE /api/inbox/push-subscriptions/:deviceId": { kind: "params" },
  "POST /api/inbox/sessions/:sessionId/open": { kind: "params" },
  "POST /api/inbox/sessions/:sessionId/messages": command("send_message", bodyOf(SendMessageCommand)),
  "POST /api/agent-keys": { kind: "body", acts: valid(MintAgentKeyBody) },
  "GET /api/agent-keys": { kind: "query", ok: true },
  "DELETE /api/agent-keys/:keyId": { kind: "params" },
  "POST /api/grants": { kind: "body", acts: valid(CreateGrantBody) },
  "GET /api/grants": { kind: "query", ok: true },
  "DELETE /api/grants/:grantId": { kind: "params" },
  "GET /api/decisions": { kind: "query" },
  "GET /api/decisions/export": { kind: "query" },
  // Chat channels: every platform is off in this runtime, so its webhook and link codes answer 404.
  "POST /api/channels/telegram": { kind: "body", acts: () => false },
  "POST /api/channels/slack": { kind: "body", acts: () => false },
  "POST /api/channels/discord": { kind: "body", acts: () => false },
  "GET /api/channels": { kind: "query", ok: true },
  "POST /api/channels/link-codes": { kind: "body", acts: () => false },
  "GET /api/channels/links": { kind: "query", ok: true },
  "DELETE /api/channels/links/:linkId": { kind: "params" },
  // A chat's See all link: an unknown or spent code is 404, whatever the credential.
  "GET /api/channels/see/:code": { kind: "params" },
  // The sign-in of `npm run dev`: this runtime has no GATEWAY_TOKEN, so it answers 404 to any body.
  "POST /api/sign-in": { kind: "body", acts: () => false },
  // Machines: the socket is a daemon's agent key's alone; the list and a start are the person's, and
  // this runtime has no person, so no query, machine id or body lists or starts anything.
  "GET /api/machines/connect": { kind: "query" },
  "GET /api/machines": { kind: "query" },
  "POST /api/machines/:machineId/sessions": { kind: "body", acts: () => false },
  // A notification's answer: no hostile body holds a token signed with the deployment's key.
  "POST /api/push/answer": { kind: "body", acts: () => false },
  // Invited approvers: inviting, listing and removing are the person's, and this runtime has none;
  // no hostile body holds a signed invite, and no hostile credential is an approver's.
  "POST /api/people/invites": { kind: "body", acts: () => false },
  "GET /api/people": { kind: "query" },
  "DELETE /api/people/:personId": { kind: "params" },
  "POST /api/people/invites/redeem": { kind: "body", acts: () => false },
  // Email addresses are the person's (none in this runtime); a card's email link is its signed token
  // alone, which no hostile path segment is, so neither a GET nor a POST reaches a card.
  "GET /api/people/me/emails": { kind: "query" },
  "POST /api/people/me/emails": { kind: "body", acts: () => false },
  "POST /api/people/me/emails/verify": { kind: "body", acts: () => false },
  "DELETE /api/people/me/emails": { kind: "body", acts: () => false },
  "GET /api/email/cards/:token": { kind: "params" },
  "POST /api/email/cards/:token": { kind: "params" },
  "GET /api/people/answering/ws": { kind: "query" },
  "GET /api/people/answering/:inviter": { kind: "params" },
  "POST /api/people/answering/:inviter/ws-ticket": { kind: "params" },
  "POST /api/people/answering/:inviter/cards/:sessionId/:interactionId/respond": {
    kind: "body",
    acts: () => false,
  },
  // An approver's own chat accounts: this runtime has no approver, so nothing is linked or listed.
  "POST /api/people/answering/:inviter/chat/link-codes": { kind: "body", acts: () => false },
  "GET /api/people/answering/:inviter/chat/links": { kind: "params" },
  "DELETE /api/people/answering/:inviter/chat/links/:linkId": { kind: "params" },
  "GET /api/people/answering/:inviter/push-subscriptions": { kind: "params" },
  "POST /api/people/answering/:inviter/push-subscriptions": {
    kind: "body",
    acts: valid(PushSubscriptionBody),
  },
  "DELETE /api/people/answering/:inviter/push-subscriptions/:deviceId": { kind: "params" },
};

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

export interface AppRoute {
  method: string;
  path: string;
  key: string;
}

/** Every route the Worker's app registers (middleware and the catch-all, registered for ALL, aside). */
export function registeredRoutes(): AppRoute[] {
  const seen = new Set<string>();
  const routes: AppRoute[] = [];
  for (const { method, path } of app.routes) {
    const key = `${method} ${path}`;
    if (method === "ALL" || seen.has(key)) continue;
    seen.add(key);
    routes.push({ method, path, key });
  }
  return routes;
}

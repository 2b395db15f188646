// `/api/people/answering`: an invited approver's side. They see the inviter's cards within their
// scope and answer them one at a time, as a person of their own, through their own credential
// (without Access) or their own Access identity — checked against the inviter's people on every use.
import { type Context, Hono } from "hono";
import * as z from "zod";
import { approverTag } from "../../inbox/approver-tag";
import { INBOX_PERSON_HEADER, INBOX_TAG_HEADER } from "../../inbox/inbox-stream-request";
import { logSecurityEvent } from "../../log/security-log";
import type { ApproverDeviceChange } from "../../objects/contracts/inbox";
import type { InboxActor } from "../../objects/contracts/session-inbox";
import { ticketHeader } from "../../objects/spent-tickets";
import type { AnsweringView } from "../../people/answering-view";
import { approverAnswerRefusal } from "../../people/approver-answer";
import { lazySchema } from "../../protocol/lazy-schema";
import { PushSubscriptionBody } from "../../protocol/reach/notify";
import { DeviceId, InteractionId, SessionId } from "../../protocol/session/session";
import type { SessionCommand } from "../../protocol/wire/commands";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { bearer } from "../credentials/bearer";
import { refuseUnknownPushService } from "../guards/push-endpoint-guard";
import { HttpError } from "../http-error";
import { readJsonBody } from "../read-json-body";
import { checkApprover, checkApproverTicket, signApproverTicket } from "../tickets/approver-credential";

export const answeringRoutes = new Hono<AppEnv>();

const AnswerBody = lazySchema(() => z.strictObject({ response: z.unknown() }));

const REMOVED = "You are no longer an approver of this person";

/** An approver admitted for `inviter`: who they are and what they see now. */
interface Admitted {
  actor: Extract<InboxActor, { kind: "approver" }>;
  view: AnsweringView;
}

/**
 * The approver asking for `inviter`'s cards, checked live with the inviter's inbox: behind Access
 * their signed-in identity, else the approver credential they present (never the gateway token).
 */
export async function admit(c: Context<AppEnv>, inviter: string): Promise<Admitted> {
  const config = c.get("config");
  const inbox = inboxStub(c.env, inviter);
  let approverId: string | null = null;
  if (config.access) {
    const person = c.get("person")?.toLowerCase();
    const people = person ? await inbox.people() : null;
    approverId = people?.approvers.find((approver) => approver.personId === person)?.approverId ?? null;
  } else {
    const token = bearer(c.req.header("authorization"));
    const claim = token ? await checkApprover(config.sessionSecret, token) : null;
    if (!claim) throw new HttpError("unauthorized", "This needs Authorization: Bearer <approver credential>");
    if (claim.inviter === inviter) approverId = claim.approverId;
  }
  const view = approverId ? await inbox.answering(inviter, approverId) : null;
  if (!approverId || !view) {
    logSecurityEvent("credential_refused", { reason: "approver_removed" });
    throw new HttpError("forbidden", REMOVED);
  }
  const { personId, name } = view.approver;
  return { actor: { kind: "approver", person: inviter, approverId, personId, name }, view };
}

export const inviterOf = (c: Context<AppEnv>): string => {
  const inviter = c.req.param("inviter") ?? "";
  if (inviter.length === 0 || inviter.length > 320) throw new HttpError("not_found", "No such person");
  return inviter;
};

// The socket first: `ws` is no inviter's name. Its ticket names the approver, checked again by the inbox.
answeringRoutes.get("/ws", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new HttpError("invalid_input", "Expected a WebSocket upgrade request");
  }
  const ticket = await checkApproverTicket(
    c.get("config").sessionSecret,
    c.req.query("ticket") ?? "",
    Date.now(),
  );
  if (!ticket) throw new HttpError("forbidden", "Unknown or expired approver ticket; ask for a new one");
  const headers = new Headers({
    upgrade: "websocket",
    [INBOX_PERSON_HEADER]: ticket.inviter,
    [INBOX_TAG_HEADER]: approverTag(ticket.approverId),
    ...ticketHeader(ticket),
  });
  const url = new URL("/inbox/ws", new URL(c.req.url).origin);
  const response = await inboxStub(c.env, ticket.inviter).fetch(new Request(url, { headers }));
  if (response.status === 101) return new Response(null, { status: 101, webSocket: response.webSocket });
  const refused = (await response.json()) as { code?: string; message?: string };
  const code =
    refused.code === "rate_limited" || refused.code === "too_many_sockets" ? refused.code : "forbidden";
  throw new HttpError(code, refused.message ?? REMOVED);
});

answeringRoutes.get("/:inviter", async (c) => c.json((await admit(c, inviterOf(c))).view));

answeringRoutes.post("/:inviter/ws-ticket", async (c) => {
  const { actor } = await admit(c, inviterOf(c));
  const claim = { inviter: actor.person, approverId: actor.approverId };
  return c.json(await signApproverTicket(c.get("config").sessionSecret, claim, Date.now()), 201);
});

answeringRoutes.post("/:inviter/cards/:sessionId/:interactionId/respond", async (c) => {
  const { actor, view } = await admit(c, inviterOf(c));
  const sessionId = SessionId.safeParse(c.req.param("sessionId"));
  const interactionId = InteractionId.safeParse(c.req.param("interactionId"));
  const card = view.cards.find(
    (open) => open.sessionId === sessionId.data && open.interactionId === interactionId.data,
  );
  // A card outside the approver's scope is as unknown to them as one that does not exist.
  if (!sessionId.success || !interactionId.success || !card) {
    throw new HttpError("not_found", "No open card of this person you may answer");
  }
  const body = await readJsonBody(c, AnswerBody);
  const refusal = approverAnswerRefusal(card.kind, body.response);
  if (refusal) throw new HttpError("forbidden", refusal);
  const command = { type: "respond", interactionId: card.interactionId, response: body.response };
  const outcome = await sessionStub(c.env, card.sessionId).fromInbox(actor, {
    type: "command",
    command: command as SessionCommand,
  });
  if (!outcome.ok) throw HttpError.from(outcome.error);
  return c.json({ ok: true, result: outcome.result ?? null });
});

// "Notify this device" on the approver's page: their own devices, held by them in the inviter's
// inbox, get a rung of a card's ladder addressed to approvers when it reaches them, nothing else.
const devices = "/:inviter/push-subscriptions";

/** The approver's devices after `change`, read once they are admitted (src/inbox/inbox-push.ts). */
async function approverDevices(
  c: Context<AppEnv>,
  change?: (url: string) => ApproverDeviceChange | Promise<ApproverDeviceChange>,
) {
  const inviter = inviterOf(c);
  const { actor } = await admit(c, inviter);
  // A push opens the approver's own page (their credential stays in their browser), never the inbox.
  const url = `${new URL(c.req.url).origin}/#/inbox?answering=${encodeURIComponent(inviter)}`;
  const deviceIds = await inboxStub(c.env, inviter).approverDevices(actor.personId, await change?.(url));
  if ("code" in deviceIds) throw HttpError.from(deviceIds);
  return { deviceIds };
}

answeringRoutes.get(devices, async (c) => c.json(await approverDevices(c)));

answeringRoutes.post(devices, async (c) => {
  const listed = await approverDevices(c, async (url) => {
    if (!c.get("config").push) {
      throw new HttpError("invalid_input", "This server has no VAPID keys, so it cannot send Web Push");
    }
    const add = await readJsonBody(c, PushSubscriptionBody);
    refuseUnknownPushService(c, add.subscription.endpoint, { sessionId: null, linkId: null });
    return { add, url };
  });
  return c.json(listed, 201);
});

answeringRoutes.delete(`${devices}/:deviceId`, async (c) => {
  const listed = await approverDevices(c, () => {
    const remove = DeviceId.safeParse(c.req.param("deviceId"));
    if (!remove.success) throw new HttpError("invalid_input", "deviceId: invalid device id");
    return { remove: remove.data };
  });
  return c.json(listed);
});

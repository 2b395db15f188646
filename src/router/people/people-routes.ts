// `/api/people`: the person invites people to answer their cards, lists and removes them; an
// invitee redeems an invite once (POST, never on a GET a link preview could make). Only the person
// in person manages people; an approver reaches their side through src/router/people/answering-routes.ts.
import { Hono } from "hono";
import * as z from "zod";
import { logSecurityEvent } from "../../log/security-log";
import { InviteBody } from "../../people/people-terms";
import { lazySchema } from "../../protocol/lazy-schema";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { newSessionId } from "../../tokens/session-token";
import type { AppEnv } from "../app-env";
import { bearer, timingSafeEqual } from "../credentials/bearer";
import { HttpError } from "../http-error";
import { personOf } from "../person";
import { readJsonBody } from "../read-json-body";
import { checkInvite, signApprover, signInvite } from "../tickets/approver-credential";
import { answeringChatRoutes } from "./answering-chat-routes";
import { answeringRoutes } from "./answering-routes";

export const peopleRoutes = new Hono<AppEnv>();

const RedeemBody = lazySchema(() => z.strictObject({ invite: z.string().min(1).max(2000) }));

const REDEEM_REFUSED = {
  unknown: "This invite is not one of this person's",
  spent: "This invite was already used",
  expired: "This invite has expired; ask for a new one",
  removed: "This invite was withdrawn",
  wrong_person: "This invite is for another identity: sign in as the address it names",
} as const;

peopleRoutes.route("/answering", answeringRoutes);
peopleRoutes.route("/answering", answeringChatRoutes);

peopleRoutes.post("/invites", async (c) => {
  const person = personOf(c);
  const body = await readJsonBody(c, InviteBody);
  const access = c.get("config").access;
  // Behind Access the invitee signs in as themselves, so the invite names who; without it an
  // address would be unverified, and is refused rather than shown as if it were known.
  if (access && !body.email)
    throw new HttpError("invalid_input", "email: behind Access an invite names who signs in");
  if (!access && body.email)
    throw new HttpError("invalid_input", "email: only behind Access can Parley know who signs in");
  if (body.email && body.email === person.toLowerCase()) {
    throw new HttpError("invalid_input", "email: you cannot invite yourself; an approver is a second person");
  }
  const inviteId = newSessionId();
  const expiresAt = Date.now() + body.expiresInSeconds * 1000;
  const invite = { inviteId, name: body.name, scope: body.scope, email: body.email, expiresAt };
  const record = await inboxStub(c.env, person).invitePerson(invite);
  if (!record)
    throw new HttpError("too_many_links", "You keep too many people and invites; remove some first");
  const token = await signInvite(c.get("config").sessionSecret, person, inviteId, record.expiresAt);
  const url = `${new URL(c.req.url).origin}/#/join?invite=${token}`;
  return c.json({ inviteId, url, expiresAt: record.expiresAt }, 201);
});

peopleRoutes.get("/", async (c) => c.json(await inboxStub(c.env, personOf(c)).people()));

peopleRoutes.delete("/:personId", async (c) => {
  const id = c.req.param("personId");
  if (id.length > 320) throw new HttpError("not_found", "No such approver or invite");
  const removed = await inboxStub(c.env, personOf(c)).removePerson(id);
  if (!removed) throw new HttpError("not_found", "No such approver or invite");
  return c.json(removed);
});

// The invite is the capability here: without Access anyone holding it becomes an approver (never
// the person themselves, who is refused); behind Access only the identity it names.
peopleRoutes.post("/invites/redeem", async (c) => {
  const config = c.get("config");
  const body = await readJsonBody(c, RedeemBody);
  const invite = await checkInvite(config.sessionSecret, body.invite, Date.now());
  if (!invite.ok) {
    logSecurityEvent("credential_refused", { reason: `invite_${invite.reason}` });
    if (invite.reason === "expired") throw new HttpError("link_expired", REDEEM_REFUSED.expired);
    throw new HttpError("forbidden", "This is not an invite of this Parley");
  }
  const presented = bearer(c.req.header("authorization"));
  const signedInAs = config.access ? personOf(c) : null;
  const inviterSelf = config.access
    ? signedInAs?.toLowerCase() === invite.inviter.toLowerCase()
    : !!(config.gatewayToken && presented && timingSafeEqual(presented, config.gatewayToken));
  if (inviterSelf)
    throw new HttpError("forbidden", "You cannot be your own approver; hand the invite to someone else");
  const approverId = newSessionId();
  const redeemed = await inboxStub(c.env, invite.inviter).redeemInvite(
    invite.inviteId,
    approverId,
    signedInAs,
  );
  if (!redeemed.ok) {
    logSecurityEvent("credential_refused", { reason: `invite_${redeemed.reason}` });
    throw new HttpError(
      redeemed.reason === "expired" ? "link_expired" : "forbidden",
      REDEEM_REFUSED[redeemed.reason],
    );
  }
  const { personId, name } = redeemed.approver;
  const credential = config.access
    ? null
    : await signApprover(config.sessionSecret, { inviter: invite.inviter, approverId, name });
  return c.json({ inviter: invite.inviter, personId, name, credential }, 201);
});

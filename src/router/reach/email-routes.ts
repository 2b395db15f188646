// Email (docs/guide-approvers.md#escalation-and-email): `/api/people/me/emails`, where a person adds
// an address (a code is sent there), verifies it with that code, lists and removes addresses; and
// `/api/email/cards/<token>`, the link in a card's email. A GET of the link only shows the card,
// since mail scanners open links; Approve or Deny is a POST, and the token answers once, as the
// person the email went to (the card's own person, or an approver as themselves).
import { type Context, Hono } from "hono";
import { html } from "hono/html";
import * as z from "zod";
import { cardAnswerer } from "../../email/card-answerer";
import { answerByEmail } from "../../email/email-answer";
import { logSecurityEvent } from "../../log/security-log";
import {
  AddEmailBody,
  type EmailOutcome,
  RemoveEmailBody,
  VerifyEmailBody,
} from "../../protocol/reach/email";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionKinds } from "../../session/session-kinds";
import { checkPushAnswerToken, PushDecision } from "../../tokens/push-answer-token";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf, requireInPerson } from "../person";
import { readJsonBody } from "../read-json-body";

export const emailRoutes = new Hono<AppEnv>();

emailRoutes.use("*", async (c, next) => {
  requireInPerson(c, "add or see email addresses");
  await next();
});

function answer(c: Context<AppEnv>, outcome: EmailOutcome, status: 200 | 201 = 200) {
  if (!outcome.ok) throw HttpError.from(outcome.error);
  if (!("addresses" in outcome)) throw new Error("The inbox answered an address action with a card's answer");
  return c.json({ addresses: outcome.addresses, sent: outcome.sent }, status);
}

emailRoutes.get("/", async (c) =>
  answer(c, await inboxStub(c.env, personOf(c)).emailAddresses({ type: "list" })),
);

emailRoutes.post("/", async (c) => {
  const person = personOf(c);
  const { address } = await readJsonBody(c, AddEmailBody);
  const origin = new URL(c.req.url).origin;
  return answer(
    c,
    await inboxStub(c.env, person).emailAddresses({ type: "request_code", person, address, origin }),
    201,
  );
});

emailRoutes.post("/verify", async (c) => {
  const { address, code } = await readJsonBody(c, VerifyEmailBody);
  const outcome = await inboxStub(c.env, personOf(c)).emailAddresses({ type: "verify", address, code });
  if (!outcome.ok) logSecurityEvent("credential_refused", { reason: "email_code" });
  return answer(c, outcome);
});

emailRoutes.delete("/", async (c) => {
  const { address } = await readJsonBody(c, RemoveEmailBody);
  return answer(c, await inboxStub(c.env, personOf(c)).emailAddresses({ type: "remove", address }));
});

/** A card's email link: its token is its only authority (mounted before identity, like a push's answer). */
export const emailCardRoutes = new Hono<AppEnv>();

async function claimsOf(c: Context<AppEnv>) {
  const checked = await checkPushAnswerToken(
    c.get("config").sessionSecret,
    c.req.param("token") ?? "",
    Date.now(),
  );
  if (!checked.ok) {
    logSecurityEvent("credential_refused", { reason: `email_link_${checked.reason}` });
    throw new HttpError(
      "forbidden",
      checked.reason === "expired"
        ? "This email's link expired with its card's deadline"
        : "Unknown email link",
    );
  }
  return checked.claims;
}

// Shows the card; never answers, whatever the query says.
emailCardRoutes.get("/:token", async (c) => {
  const claims = await claimsOf(c);
  const answerer = await cardAnswerer(c.env, claims);
  const card = answerer.ok ? answerer.card : null;
  const summary = card ? sessionKinds.summary(card.kind, card.toolName, card.request) : null;
  const page = new URL(c.req.url).origin;
  c.header("content-security-policy", "default-src 'none'; form-action 'self'; frame-ancestors 'none'");
  return c.html(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Parley</title></head><body>
<h1>${summary?.title ?? "A card waiting for an answer"}</h1>
<p>${summary?.line ?? "It is no longer open, or no longer one you may answer."}</p>
<form method="post"><button name="decision" value="approve">Approve</button>
<button name="decision" value="deny">Deny</button></form>
<p><a href="${page}/#/s/${claims.sessionId}">Open the card on its page</a></p>
</body></html>`,
  );
});

const FormDecision = z.object({ decision: PushDecision });

emailCardRoutes.post("/:token", async (c) => {
  const claims = await claimsOf(c);
  const form = c.req.header("content-type")?.startsWith("application/json")
    ? await readJsonBody(c, FormDecision)
    : FormDecision.safeParse(await c.req.parseBody()).data;
  if (!form) throw new HttpError("invalid_input", "decision: must be approve or deny");
  // The person the email went to answers (its creator, or an approver as themselves), once: the
  // link spends the email's one answer, which a reply to it would spend too.
  const outcome = await answerByEmail(c.env, claims.nonce, null, form.decision);
  if (!outcome.ok) {
    logSecurityEvent("credential_refused", {
      sessionId: claims.sessionId,
      reason: `email_link_${outcome.error.code}`,
    });
    throw HttpError.from(outcome.error);
  }
  return c.json({
    ok: true,
    outcome: form.decision === "approve" ? "approved" : "denied",
    sessionId: claims.sessionId,
    interactionId: claims.interactionId,
  });
});

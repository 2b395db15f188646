// Who a request acts for (docs/inbox.md#the-inbox): the Cloudflare Access identity when Access
// guards the deployment, else the holder of GATEWAY_TOKEN (one operator). On the inbox's own routes
// an inbox link stands in for the person who minted it. A request with none of those is no one.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { logSecurityEvent } from "../log/security-log";
import { OPERATOR } from "../protocol/access/people";
import type { AppEnv } from "./app-env";
import { ACCESS_ASSERTION_HEADER, verifyAccessAssertion } from "./credentials/access-assertion";
import { bearer, timingSafeEqual } from "./credentials/bearer";
import { checkInboxLinkToken, type InboxLinkClaims } from "./credentials/inbox-link-token";
import { HttpError } from "./http-error";
import { checkInboxTicket } from "./tickets/inbox-ticket";

export { OPERATOR };

/**
 * Sets `person` (and `inboxLink`) for every API request. Behind Access a request without a valid
 * assertion or inbox link is refused here, before any Durable Object is reached. Without Access a
 * request that carries neither the gateway token nor an inbox link has no person (session links
 * still work; the inbox does not), from loopback too: any process on the machine, an agent's
 * included, can reach loopback, so where it comes from never makes a caller the person.
 */
export const identifyPerson = createMiddleware<AppEnv>(async (c, next) => {
  // An agent key named its person already (src/router/guards/agent-key-guard.ts).
  if (c.get("agentKey")) return next();
  const config = c.get("config");
  c.set("inboxLink", null);
  const assertion = config.access ? c.req.header(ACCESS_ASSERTION_HEADER) : undefined;
  const presented = bearer(c.req.header("authorization"));
  if (config.access && assertion) {
    const verified = await verifyAccessAssertion(assertion, config.access);
    if (!verified.ok) {
      logSecurityEvent("credential_refused", { reason: "access_assertion", status: 401 });
      throw new HttpError("unauthorized", `Access assertion refused: ${verified.reason}`);
    }
    c.set("person", verified.person);
  } else if (config.gatewayToken && presented && timingSafeEqual(presented, config.gatewayToken)) {
    c.set("person", OPERATOR);
  } else {
    const link = await inboxLinkOf(c);
    if (link) {
      c.set("person", link.person);
      c.set("inboxLink", link);
    } else if (config.access) {
      throw new HttpError(
        "unauthorized",
        "This deployment is behind Cloudflare Access: every request needs a Cf-Access-Jwt-Assertion",
      );
    } else {
      c.set("person", null);
    }
  }
  await next();
});

// An inbox link is accepted on the inbox's routes and the grants' (never on a session's, never to
// manage links); like a session's, its token may ride in the URL only for the event stream and WebSocket.
async function inboxLinkOf(c: Context<AppEnv>): Promise<InboxLinkClaims | null> {
  const path = c.req.path;
  const own = (root: string) => path === root || path.startsWith(`${root}/`);
  if (!(own("/api/inbox") || own("/api/grants")) || path.startsWith("/api/inbox/links")) return null;
  const inUrl = path === "/api/inbox/stream" || path === "/api/inbox/ws";
  // A browser's stream states its inbox link with a single-use ticket (src/router/tickets/inbox-ticket.ts).
  const ticket = inUrl && !c.req.header("authorization") ? c.req.query("ticket") : undefined;
  if (ticket) return (await checkInboxTicket(c.get("config").sessionSecret, ticket, Date.now())).link;
  const token = bearer(c.req.header("authorization")) ?? (inUrl ? c.req.query("token") : undefined);
  if (!token) return null;
  const checked = await checkInboxLinkToken(c.get("config").sessionSecret, token, Date.now());
  if (checked.ok) return checked.link;
  logSecurityEvent("credential_refused", { reason: `inbox_link_${checked.reason}` });
  if (checked.reason === "expired") throw new HttpError("link_expired", "This inbox link has expired");
  throw new HttpError("unauthorized", "This is not a valid inbox link");
}

/** The person the request acts for; 401 when it has none. */
export function personOf(c: Context<AppEnv>): string {
  const person = c.get("person");
  if (!person) {
    throw new HttpError(
      "unauthorized",
      c.get("config").gatewayToken
        ? "This needs Authorization: Bearer <GATEWAY_TOKEN> (the operator's token)"
        : "This gateway has no person: set GATEWAY_TOKEN (`npm run dev` writes one to .dev.vars) or put Cloudflare Access in front",
    );
  }
  return person;
}

/** Throws unless the person acts in person (not through an inbox link). */
export function requireInPerson(c: Context<AppEnv>, what: string): void {
  if (c.get("inboxLink")) throw new HttpError("forbidden", `An inbox link may not ${what}`);
}

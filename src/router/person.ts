// Who a request acts for (DESIGN §21): the Cloudflare Access identity when Access guards the
// deployment, else the holder of GATEWAY_TOKEN (one operator), else the one local person.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { ACCESS_ASSERTION_HEADER, verifyAccessAssertion } from "./access-assertion";
import type { AppEnv } from "./app-env";
import { bearer, timingSafeEqual } from "./bearer";
import { HttpError } from "./http-error";

/** The person of a deployment with GATEWAY_TOKEN and no Access: whoever holds the token. */
export const OPERATOR = "operator";
/** The person of a deployment with neither (development on one machine). */
export const LOCAL_PERSON = "local";

/**
 * Sets `person` for every API request. Behind Access a missing or bad assertion is refused here,
 * before any Durable Object is reached. Without Access a request that does not carry the gateway
 * token has no person (session links still work; the inbox does not).
 */
export const identifyPerson = createMiddleware<AppEnv>(async (c, next) => {
  const config = c.get("config");
  if (config.access) {
    const assertion = c.req.header(ACCESS_ASSERTION_HEADER);
    if (!assertion) {
      throw new HttpError(
        "unauthorized",
        "This deployment is behind Cloudflare Access: every request needs a Cf-Access-Jwt-Assertion",
      );
    }
    const verified = await verifyAccessAssertion(assertion, config.access);
    if (!verified.ok) throw new HttpError("unauthorized", `Access assertion refused: ${verified.reason}`);
    c.set("person", verified.person);
  } else if (config.gatewayToken) {
    const presented = bearer(c.req.header("authorization"));
    c.set("person", presented && timingSafeEqual(presented, config.gatewayToken) ? OPERATOR : null);
  } else {
    c.set("person", LOCAL_PERSON);
  }
  await next();
});

/** The person the request acts for; 401 when it has none. */
export function personOf(c: Context<AppEnv>): string {
  const person = c.get("person");
  if (!person) {
    throw new HttpError(
      "unauthorized",
      "This needs Authorization: Bearer <GATEWAY_TOKEN> (the operator's token)",
    );
  }
  return person;
}

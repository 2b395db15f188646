// Behind Cloudflare Access a session's owner token is not enough: it works only for the person who
// created the session, so a leaked owner link does not hand it to another signed-in person.
// Share links (answer, view) stay what they are: a capability given on purpose, and whoever Access
// signed in as presents one is named with it, so the session counts approvals by person.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Access } from "../../protocol/access/access";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";

export const requireOwnSession = createMiddleware<AppEnv>(async (c, next) => {
  c.set("access", withSignedInPerson(c, c.get("access")));
  if (c.get("config").access && c.get("access").role === "owner") {
    const creator = await sessionStub(c.env, c.get("sessionId")).creator();
    if (creator !== null && creator !== c.get("person")) {
      throw new HttpError("forbidden", "This session belongs to another person");
    }
  }
  await next();
});

/**
 * `access` naming the person Access signed in for this very request, and nobody else: a name a
 * connection ticket carried from the request that asked for it is dropped, and without Access
 * nothing names a person. Access names a person by email and a service token by its client id (no
 * `@`): a machine is never a second person, so its answers count as the credential's owner.
 */
function withSignedInPerson(c: Context<AppEnv>, access: Access): Access {
  const { signedInAs: _carried, ...stated } = access;
  const person = c.get("person");
  const signedIn = c.get("config").access !== null && !c.get("inboxLink") && !c.get("agentKey");
  return signedIn && person?.includes("@")
    ? ({ ...stated, signedInAs: person } as Access)
    : (stated as Access);
}

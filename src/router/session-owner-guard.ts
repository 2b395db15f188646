// Behind Cloudflare Access a session's owner token is not enough: it works only for the person who
// created the session, so a leaked owner link does not hand it to another signed-in person.
// Share links (answer, view) stay what they are: a capability given on purpose.
import { createMiddleware } from "hono/factory";
import { sessionStub } from "../session/session-rpc";
import type { AppEnv } from "./app-env";
import { HttpError } from "./http-error";

export const requireOwnSession = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("config").access && c.get("access").role === "owner") {
    const creator = await sessionStub(c.env, c.get("sessionId")).creator();
    if (creator !== null && creator !== c.get("person")) {
      throw new HttpError("forbidden", "This session belongs to another person");
    }
  }
  await next();
});

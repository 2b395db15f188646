// Role checks in the Worker, before the session's object wakes: owner-only routes, and commands a
// share link's role may not send.
import type { Context } from "hono";
import { mayRun } from "../../protocol/access/access";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";

/** Throws unless the request was made with the session owner's token. */
export function requireOwner(c: Context<AppEnv>, what: string): void {
  if (c.get("access").role !== "owner") {
    throw new HttpError("forbidden", `Only the session's owner may ${what}; share links cannot`);
  }
}

/** Throws unless the caller's role may send `command`. */
export function requireCommand(c: Context<AppEnv>, command: string): void {
  const { role } = c.get("access");
  if (!mayRun(role, command)) {
    throw new HttpError("forbidden", `A ${role} link may not send ${command}`);
  }
}

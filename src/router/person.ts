// Who is asking, as the Worker knows it: the operator of a deployment guarded by GATEWAY_TOKEN,
// or "local" for an open one. Sessions record their creator; keyed external sessions derive from it.
import type { Context } from "hono";
import type { AppEnv } from "./app-env";

/** The person behind a request that created or owns sessions. */
export function personOf(c: Context<AppEnv>): string {
  return c.get("config").gatewayToken ? "operator" : "local";
}

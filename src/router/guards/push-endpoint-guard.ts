// A push subscription is stored only when its endpoint belongs to a known push service, so no
// token holder can make the Worker post to an address of their choosing.
import type { Context } from "hono";
import { logSecurityEvent } from "../../log/security-log";
import { pushEndpointProblem } from "../../notify/push-services";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { isLoopbackRequest } from "./loopback";

/**
 * Throws `400 invalid_input` naming `subscription.endpoint` when no known push service serves it;
 * `by` names the session and link (a session's route) or the inbox link (the inbox's) for the log.
 */
export function refuseUnknownPushService(
  c: Context<AppEnv>,
  endpoint: string,
  by: { sessionId: string | null; linkId: string | null },
): void {
  const problem = pushEndpointProblem(
    endpoint,
    c.get("config").pushServiceDomains,
    isLoopbackRequest(c.req.raw),
  );
  if (!problem) return;
  logSecurityEvent("push_endpoint_refused", { ...by, reason: "unknown_push_service", status: 400 });
  throw new HttpError("invalid_input", `subscription.endpoint: ${problem}`);
}

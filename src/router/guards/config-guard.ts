// The Worker's configuration for one request: the one reader's (`configFor`, read once per env
// object), refused as a whole when it is invalid (a missing or weak SESSION_SECRET included); and a
// gateway with no credential configured (neither GATEWAY_TOKEN nor Access), which has no person,
// refused beyond this machine.
import { type Config, configFor } from "../../config";
import { HttpError } from "../http-error";
import { isLoopbackRequest } from "./loopback";

/** The message a credential-less gateway answers to a request from beyond loopback. */
export const LOOPBACK_ONLY_MESSAGE =
  "This Parley has no credential configured, so it answers only requests from this machine (127.0.0.1, localhost). " +
  "To serve other hosts set GATEWAY_TOKEN (`npx wrangler secret put GATEWAY_TOKEN`) or put Cloudflare Access in front " +
  "(ACCESS_TEAM_DOMAIN and ACCESS_AUD)";

export function requestConfig(env: Env, request: Request): Config {
  let config: Config;
  try {
    // An invalid configuration is not kept: it is read again on every request until fixed.
    config = configFor(env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ event: "config_invalid", message }));
    throw new HttpError("misconfigured", message);
  }
  // Without a credential there is no person (src/router/person.ts), only sessions made by whoever
  // asked: such a gateway is for this machine's own tests and tools, never served beyond it.
  if (!config.gatewayToken && !config.access && !isLoopbackRequest(request)) {
    throw new HttpError("forbidden", LOOPBACK_ONLY_MESSAGE);
  }
  return config;
}

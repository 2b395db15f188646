// Session creation per client IP, through the Workers Rate Limiting binding (wrangler.toml
// `SESSION_CREATION_LIMITER`), which miniflare also runs locally.
import { HttpError } from "./http-error";

// Requests from this machine (wrangler dev, the benchmark) are not abuse; Cloudflare's edge always
// sets the header to the real client address, which is never loopback.
const LOOPBACK = new Set(["127.0.0.1", "::1"]);

export async function limitSessionCreation(env: Env, clientIp: string | undefined): Promise<void> {
  const limiter = env.SESSION_CREATION_LIMITER;
  if (!limiter || !clientIp || LOOPBACK.has(clientIp)) return;
  const { success } = await limiter.limit({ key: `create:${clientIp}` });
  if (!success) {
    throw new HttpError("rate_limited", "Too many sessions created from this address; wait a minute");
  }
}

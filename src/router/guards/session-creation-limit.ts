// Session creation per client, through the Workers Rate Limiting binding (wrangler.toml
// `SESSION_CREATION_LIMITER`), which miniflare also runs locally. An IPv6 client is counted by
// its /64, the smallest block a home or a cloud host is given: it could otherwise take a fresh
// address for every request.
import ipaddr from "ipaddr.js";
import { logSecurityEvent } from "../../log/security-log";
import { HttpError } from "../http-error";
import { isLoopbackAddress } from "./loopback";

export async function limitSessionCreation(env: Env, clientIp: string | undefined): Promise<void> {
  const limiter = env.SESSION_CREATION_LIMITER;
  const client = clientIp ? creationKey(clientIp) : null;
  if (!limiter || client === null) return;
  const { success } = await limiter.limit({ key: `create:${client}` });
  if (!success) {
    logSecurityEvent("rate_limited", { reason: "session_creation", status: 429 });
    throw new HttpError("rate_limited", "Too many sessions created from this address; wait a minute");
  }
}

/**
 * The key a client's creations are counted under: an IPv4 address (IPv4-mapped IPv6 included)
 * as is, an IPv6 address by its /64. Null for loopback: requests from this machine (wrangler dev,
 * the benchmark) are not abuse, and Cloudflare's edge never sends a loopback client address.
 */
export function creationKey(clientIp: string): string | null {
  if (!ipaddr.isValid(clientIp)) return clientIp;
  if (isLoopbackAddress(clientIp)) return null;
  const address = ipaddr.process(clientIp);
  if (address.kind() === "ipv4") return address.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`);
  return `${prefix.toString()}/64`;
}

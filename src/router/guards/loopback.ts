// Whether a request reached this Worker from this machine: what a gateway with no credential
// configured serves (and never who is a person). Cloudflare's edge always sets CF-Connecting-IP to
// the real client address, which is never loopback; wrangler dev sets it from the socket when the
// client did not.
import ipaddr from "ipaddr.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** True when `address` is a loopback IP address (IPv4-mapped IPv6 included). */
export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
}

/**
 * A loopback request names a loopback host in its URL and, where the runtime states the connection's
 * address, comes from a loopback address too. The host alone is not enough (a client can send any
 * Host to a server listening beyond loopback); the address alone is not either (a page of another
 * site, resolved to 127.0.0.1 by DNS rebinding, arrives from loopback under its own host name).
 */
export function isLoopbackRequest(request: Request): boolean {
  if (!LOOPBACK_HOSTS.has(new URL(request.url).hostname)) return false;
  const connectingIp = request.headers.get("cf-connecting-ip");
  return connectingIp === null || isLoopbackAddress(connectingIp);
}

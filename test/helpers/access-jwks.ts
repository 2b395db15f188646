// The network edge of the inbox tests: Miniflare sends every outbound fetch of the Worker here (in
// Node). It serves the Access team's JWKS with the public keys the tests generated and published
// through the control host, so the Worker verifies assertions with jose against real HTTP.
import { ACCESS_BINDINGS, JWKS_CONTROL_HOST } from "./access-bindings.ts";

const published: unknown[] = [];

/** Miniflare's `outboundService`. */
export async function accessJwks(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname === JWKS_CONTROL_HOST && request.method === "POST") {
    published.push(await request.json());
    return new Response(null, { status: 204 });
  }
  if (url.hostname === ACCESS_BINDINGS.ACCESS_TEAM_DOMAIN && url.pathname === "/cdn-cgi/access/certs") {
    return Response.json({ keys: published });
  }
  return new Response("no such host in the inbox tests", { status: 502 });
}

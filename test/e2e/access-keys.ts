// A Cloudflare Access team for a local `wrangler dev`: a test key published as a JWKS on loopback
// (the server's ACCESS_CERTS_URL) and assertions signed with it, one per identity, as Access signs them.
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export interface AccessTeam {
  /** The Worker's Access settings: ACCESS_TEAM_DOMAIN, ACCESS_AUD and ACCESS_CERTS_URL. */
  vars: Record<string, string>;
  /** A `Cf-Access-Jwt-Assertion` for `email`, valid for an hour. */
  assertionFor(email: string): Promise<string>;
  stop(): Promise<void>;
}

const TEAM_DOMAIN = "team.parley.test";
const AUDIENCE = "parley-e2e-audience";

/** Starts the team's key server on a free loopback port. */
export async function startAccessTeam(): Promise<AccessTeam> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const kid = "parley-e2e-key";
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }] });
  const server: Server = createServer((request, response) => {
    if (request.url === "/cdn-cgi/access/certs") {
      response.writeHead(200, { "content-type": "application/json" }).end(jwks);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    vars: {
      ACCESS_TEAM_DOMAIN: TEAM_DOMAIN,
      ACCESS_AUD: AUDIENCE,
      ACCESS_CERTS_URL: `http://127.0.0.1:${port}/cdn-cgi/access/certs`,
    },
    assertionFor: (email) =>
      new SignJWT({ email })
        .setProtectedHeader({ alg: "RS256", kid })
        .setIssuer(`https://${TEAM_DOMAIN}`)
        .setAudience(AUDIENCE)
        .setSubject(email)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(privateKey),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

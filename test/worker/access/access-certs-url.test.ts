// ACCESS_CERTS_URL, where a local `wrangler dev` reads the Access team's keys: accepted only as an
// http URL on loopback; any other value stops the deployment with a configuration error naming it,
// so whoever could set it cannot point the Worker at keys of their own.
import { env } from "cloudflare:workers";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/config";
import { app } from "../../../src/router/app";

const TEAM = "team.parley.test";
const AUDIENCE = "parley-certs-url-audience";
const ACCESS = { ACCESS_TEAM_DOMAIN: TEAM, ACCESS_AUD: AUDIENCE };
const SECRET = { SESSION_SECRET: "test-session-secret-at-least-32-bytes-long" };

// A fresh object per call: the Worker reads each env object's configuration once.
function deployment(vars: Record<string, string>): Env {
  return { ...env, ...ACCESS, ...vars } as unknown as Env;
}

/** An assertion for `email` signed with a key of the caller's own, as an attacker would make one. */
async function forgedAssertion(email: string): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const kid = (await exportJWK(publicKey)).n?.slice(0, 16) ?? "forged";
  return new SignJWT({ email })
    .setProtectedHeader({ alg: "RS256", kid })
    .setIssuer(`https://${TEAM}`)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(privateKey);
}

async function inbox(on: Env, assertion?: string): Promise<Response> {
  const headers: Record<string, string> = assertion ? { "cf-access-jwt-assertion": assertion } : {};
  return app.fetch(new Request("https://parley.example.com/api/inbox", { headers }), on);
}

const ATTACKER_SHAPED = [
  "https://keys.attacker.example/certs",
  "http://keys.attacker.example/certs",
  "http://127.0.0.1.attacker.example/certs",
  "http://localhost.attacker.example/certs",
  "http://localhost@keys.attacker.example/certs",
  "http://127.0.0.1:80@keys.attacker.example/certs",
  "http://keys.attacker.example/#@127.0.0.1/certs",
  "http://user:pass@127.0.0.1/certs",
  "https://127.0.0.1/certs",
  "file:///etc/certs",
  "//127.0.0.1/certs",
  "127.0.0.1:9999/certs",
];

describe("ACCESS_CERTS_URL", () => {
  it("reads the keys from Access's own address when it is not set", () => {
    expect(readConfig({ ...SECRET, ...ACCESS }).access?.certsUrl).toBe(
      `https://${TEAM}/cdn-cgi/access/certs`,
    );
  });

  it("is accepted as an http URL on 127.0.0.1, localhost or [::1]", () => {
    for (const url of ["http://127.0.0.1:8788/certs", "http://localhost:9000/", "http://[::1]:4000/jwks"]) {
      expect(readConfig({ ...SECRET, ...ACCESS, ACCESS_CERTS_URL: url }).access?.certsUrl).toBe(url);
    }
  });

  it("refuses every attacker-shaped value with a configuration error that names it", () => {
    for (const url of ATTACKER_SHAPED) {
      expect(() => readConfig({ ...SECRET, ...ACCESS, ACCESS_CERTS_URL: url }), url).toThrow(
        /Invalid configuration:[\s\S]*ACCESS_CERTS_URL/,
      );
    }
  });

  it("is refused without Access settings to go with it", () => {
    expect(() => readConfig({ ...SECRET, ACCESS_CERTS_URL: "http://127.0.0.1:8788/certs" })).toThrow(
      "Invalid configuration: ACCESS_CERTS_URL needs ACCESS_TEAM_DOMAIN and ACCESS_AUD",
    );
  });

  it("stops a deployment pointed at keys elsewhere: an assertion signed with the attacker's key names no one", async () => {
    const response = await inbox(
      deployment({ ACCESS_CERTS_URL: "http://localhost@keys.attacker.example/certs" }),
      await forgedAssertion("ana@parley.test"),
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("misconfigured");
    expect(body.error.message).toMatch(/127\.0\.0\.1, localhost or \[::1\][\s\S]*ACCESS_CERTS_URL/);
  });

  it("keeps Access in force on loopback: no assertion, or one whose keys cannot be read, is refused", async () => {
    // Nothing listens on port 9 of loopback (as on a deployed Worker, which cannot reach loopback).
    const on = deployment({ ACCESS_CERTS_URL: "http://127.0.0.1:9/certs" });
    const bare = await inbox(on);
    expect(bare.status).toBe(401);
    const forged = await inbox(on, await forgedAssertion("ana@parley.test"));
    expect(forged.status).toBe(401);
    const body = (await forged.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^Access assertion refused/);
  });
});

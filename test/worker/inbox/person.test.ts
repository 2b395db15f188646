// Who a person is behind Cloudflare Access: every request carries a signed assertion, checked
// against the team's published keys before any Durable Object wakes; sessions record who made them.
import { exports } from "cloudflare:workers";
import { generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../../helpers/session-harness";
import { sqlRows } from "../../helpers/session-object-probe";
import { assertion, Person, teamKey } from "./inbox-fixtures";

async function inboxWith(headers: Record<string, string>): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/inbox`, { headers });
}

async function expectRefused(response: Response, reason: RegExp): Promise<void> {
  expect(response.status).toBe(401);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("unauthorized");
  expect(body.error.message).toMatch(reason);
}

describe("a person behind Cloudflare Access", () => {
  it("is the email of a valid assertion, lower-cased", async () => {
    const view = await new Person("Alice@Example.COM").inbox();
    expect(view).toMatchObject({ person: "alice@example.com", sessions: [], cards: [] });
  });

  it("is a service token's common name when the assertion carries no email", async () => {
    const token = await assertion({ common_name: "build-bot.access" });
    const response = await inboxWith({ "cf-access-jwt-assertion": token });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ person: "build-bot.access" });
  });

  it("without an assertion gets 401 on every API route, and no session is created", async () => {
    await expectRefused(await inboxWith({}), /Cf-Access-Jwt-Assertion/);
    const create = await exports.default.fetch(`${ORIGIN}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await expectRefused(create, /Cf-Access-Jwt-Assertion/);
    const snapshot = await exports.default.fetch(`${ORIGIN}/api/sessions/${"0".repeat(32)}`);
    await expectRefused(snapshot, /Cf-Access-Jwt-Assertion/);
  });

  it("with an assertion signed by a key the team never published gets 401", async () => {
    const { kid } = await teamKey();
    const forger = await generateKeyPair("RS256");
    const forged = await assertion({ email: "alice@example.com" }, { key: forger.privateKey, kid });
    await expectRefused(await inboxWith({ "cf-access-jwt-assertion": forged }), /signature/i);
  });

  it("with an expired assertion gets 401", async () => {
    const expired = await assertion(
      { email: "alice@example.com" },
      { expiresIn: Math.floor(Date.now() / 1000) - 60 },
    );
    await expectRefused(await inboxWith({ "cf-access-jwt-assertion": expired }), /"exp"/);
  });

  it("with an assertion for another application or another team gets 401", async () => {
    const otherApp = await assertion({ email: "alice@example.com" }, { audience: "another-application" });
    await expectRefused(await inboxWith({ "cf-access-jwt-assertion": otherApp }), /"aud"/);
    const otherTeam = await assertion(
      { email: "alice@example.com" },
      { issuer: "https://other-team.cloudflareaccess.com" },
    );
    await expectRefused(await inboxWith({ "cf-access-jwt-assertion": otherTeam }), /"iss"/);
  });

  it("with a token that is not a JWT at all gets 401", async () => {
    await expectRefused(await inboxWith({ "cf-access-jwt-assertion": "not.a.jwt" }), /refused/);
  });

  it("is recorded as the creator of the sessions they create", async () => {
    const alice = new Person("alice@example.com");
    const session = await alice.createSession();
    const rows = await sqlRows<{ value: string }>(session, `SELECT value FROM meta WHERE key = 'creator'`);
    expect(rows.map((row) => JSON.parse(row.value))).toEqual(["alice@example.com"]);
  });
});

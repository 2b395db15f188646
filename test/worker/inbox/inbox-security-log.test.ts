// Refused Access assertions and refused inbox links are security events: one structured line each,
// naming the link where there is one and never the token.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink } from "../../../src/protocol";
import { captureSecurityLog } from "../../helpers/security-log-capture";
import { ORIGIN } from "../../helpers/session-harness";
import { assertion, Person } from "./inbox-fixtures";

function inboxWith(headers: Record<string, string>): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/inbox`, { headers });
}

describe("the security log of people and inbox links", () => {
  const { lines, written } = captureSecurityLog();

  it("records a refused Access assertion", async () => {
    const expired = await assertion(
      { email: "mallory@example.com" },
      { expiresIn: Math.floor(Date.now() / 1000) - 60 },
    );
    expect((await inboxWith({ "cf-access-jwt-assertion": expired })).status).toBe(401);
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "credential_refused", reason: "access_assertion", status: 401 }),
    );
    expect(written()).not.toContain(expired);
  });

  it("records a forged inbox link and a revoked one, naming the revoked link", async () => {
    const alice = new Person("alice.seclog@example.com");
    const minted = await alice.api("POST", "/api/inbox/links", { body: { role: "view" } });
    const link = (await minted.json()) as MintedInboxLink;
    const forged = `${link.token.slice(0, -4)}AAAA`;
    expect((await inboxWith({ authorization: `Bearer ${forged}` })).status).toBe(401);
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "credential_refused", reason: "inbox_link_wrong" }),
    );

    expect((await alice.api("DELETE", `/api/inbox/links/${link.linkId}`)).status).toBe(200);
    expect((await inboxWith({ authorization: `Bearer ${link.token}` })).status).toBe(403);
    expect(lines()).toContainEqual(
      expect.objectContaining({
        event: "credential_refused",
        linkId: link.linkId,
        reason: "inbox_link_revoked",
      }),
    );
    expect(written()).not.toContain(link.token);
  });
});

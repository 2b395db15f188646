// Telling credentials apart by shape, as a bridge does before it starts: only an agent key or an
// agent link passes; every credential that can answer a card is refused with what to use instead.
import { describe, expect, it } from "vitest";
import { parleyCanUseTool, parleyPrompts } from "../../../client/agent-sdk";
import {
  AnsweringCredentialError,
  bridgeCredentialRefusal,
  credentialKind,
} from "../../../client/credential-kind";
import { ExternalAgent } from "../../../client/external-agent";
import { signInboxLinkToken } from "../../../src/router/credentials/inbox-link-token";
import { signAgentKey } from "../../../src/tokens/agent-key";
import { signSessionToken } from "../../../src/tokens/session-token";
import { signShareToken } from "../../../src/tokens/share-token";

const SECRET = "unit-secret-at-least-32-bytes-long-for-tests";
const SESSION = "0123456789abcdef0123456789abcdef";
const LINK_ID = "fedcba9876543210fedcba9876543210";

async function credentials() {
  const link = (role: "agent" | "answer" | "view") =>
    signShareToken(SECRET, SESSION, { linkId: LINK_ID, role, expiresAt: null });
  return {
    agentKey: (await signAgentKey(SECRET, "alice@example.com", LINK_ID)).key,
    agent: await link("agent"),
    answer: await link("answer"),
    view: await link("view"),
    owner: await signSessionToken(SECRET, SESSION),
    rotatedOwner: await signSessionToken(SECRET, SESSION, 3),
    inbox: await signInboxLinkToken(SECRET, {
      person: "alice@example.com",
      linkId: LINK_ID,
      role: "answer",
      label: null,
      expiresAt: null,
    }),
  };
}

const url = (token: string) => `https://parley.example/#/s/${SESSION}?token=${token}`;

describe("credentialKind", () => {
  it("names every credential Parley issues by its shape alone", async () => {
    const given = await credentials();
    expect(credentialKind(given.agentKey)).toBe("agent_key");
    expect(credentialKind(given.agent)).toBe("agent_link");
    expect(credentialKind(given.answer)).toBe("person_link");
    expect(credentialKind(given.view)).toBe("person_link");
    expect(credentialKind(given.owner)).toBe("owner_token");
    expect(credentialKind(given.rotatedOwner)).toBe("owner_token");
    expect(credentialKind(given.inbox)).toBe("inbox_link");
    expect(credentialKind("my-gateway-token")).toBe("unknown");
    expect(credentialKind("pak_not-really")).toBe("unknown");
  });
});

describe("a bridge's credentials", () => {
  it("pass when they are an agent key or an agent link", async () => {
    const given = await credentials();
    expect(bridgeCredentialRefusal({ agentKey: given.agentKey })).toBeNull();
    expect(bridgeCredentialRefusal({ token: given.agentKey })).toBeNull();
    expect(bridgeCredentialRefusal({ link: url(given.agent) })).toBeNull();
  });

  it("are refused with none at all, and with a link whose token is none Parley issues", () => {
    for (const input of [{}, { agentKey: "", token: "", link: "" }]) {
      expect(bridgeCredentialRefusal(input)).toMatch(/^refusing to start: no credential; .*--agent-key/);
    }
    for (const token of ["not-a-real-token", "the-gateway-token", "a.b.c"]) {
      const refused = bridgeCredentialRefusal({ link: url(token) });
      expect(refused).toMatch(/^refusing to start: --link holds no token Parley issues/);
      expect(refused).not.toContain(token);
    }
  });

  it("are refused, saying why and what to use instead, when they could answer a card", async () => {
    const given = await credentials();
    const refusals: Array<[Parameters<typeof bridgeCredentialRefusal>[0], string]> = [
      [{ token: "the-gateway-token" }, "gateway token"],
      [{ agentKey: "the-gateway-token" }, "gateway token"],
      [{ token: given.owner }, "owner token"],
      [{ token: given.rotatedOwner }, "owner token"],
      [{ link: url(given.owner) }, "owner token"],
      [{ link: url(given.answer) }, "share link"],
      [{ link: url(given.view) }, "share link"],
      [{ token: given.inbox }, "inbox link"],
      [{ link: `https://parley.example/#/inbox?token=${given.inbox}` }, "inbox link"],
      [{ agentKey: given.agentKey, token: given.owner }, "owner token"],
    ];
    for (const [input, what] of refusals) {
      const refused = bridgeCredentialRefusal(input);
      expect(refused, JSON.stringify(input)).toContain(what);
      expect(refused).toContain("--agent-key");
      expect(refused).not.toContain("\n");
    }
  });

  it("refuse to connect an external agent, or to build the SDK helper, with the same message", async () => {
    const given = await credentials();
    let fetched = 0;
    const fetch = (async () => {
      fetched += 1;
      return Response.json({});
    }) as typeof globalThis.fetch;
    const message = bridgeCredentialRefusal({ token: given.owner });
    await expect(
      ExternalAgent.connect({ server: "https://parley.example", token: given.owner, name: "x", fetch }),
    ).rejects.toThrow(new AnsweringCredentialError(message as string));
    expect(fetched).toBe(0);
    expect(() => parleyCanUseTool({ server: "https://parley.example", token: "gateway" })).toThrow(
      AnsweringCredentialError,
    );
    expect(() => parleyCanUseTool({ link: url(given.answer) })).toThrow(/share link/);
    // The person's messages come only to a credential that cannot answer, too.
    expect(() => parleyPrompts({ server: "https://parley.example", token: "gateway" })).toThrow(
      AnsweringCredentialError,
    );
    expect(() => parleyPrompts({ link: url(given.answer) })).toThrow(/share link/);
    expect(() =>
      parleyCanUseTool({ server: "https://parley.example", agentKey: given.agentKey }),
    ).not.toThrow();
    // No credential at all: a session made so would be the owner's, its owner link the agent's.
    expect(() => parleyCanUseTool({ server: "https://parley.example" })).toThrow(/no credential/);
    await expect(
      ExternalAgent.connect({ server: "https://parley.example", name: "x", fetch }),
    ).rejects.toThrow(/no credential/);
    expect(fetched).toBe(0);
  });
});

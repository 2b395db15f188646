// Every bridge entry of the `parley` command, run for real against the suite's server: with no
// credential, a link whose token Parley never issued, or a credential that can answer (the gateway
// token, a session's owner link), each exits 2 before it connects, and nothing it prints holds
// the token it was given.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildShareUrl } from "../../client/session-link";
import { buildBridges } from "./claude-code-harness";
import { baseUrl, gatewayToken, say, scriptedSession } from "./harness";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `parley <args>` with no Parley variables of the caller's; its exit code and all it printed. */
function parley(args: string[]): { status: number | null; printed: string } {
  const env = { ...process.env };
  for (const name of ["PARLEY_SERVER", "PARLEY_AGENT_KEY", "PARLEY_TOKEN", "PARLEY_LINK"]) delete env[name];
  const run = spawnSync(process.execPath, ["bin/parley.mjs", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 20_000,
    input: "",
    env,
  });
  return { status: run.status, printed: `${run.stdout}${run.stderr}` };
}

const BRIDGES: Array<(credential: string[]) => string[]> = [
  (credential) => ["mcp", ...credential],
  (credential) => ["hook", ...credential],
  (credential) => ["acp", ...credential, "--", process.execPath, "-e", "setTimeout(() => {}, 60000)"],
];

describe("a bridge started without a credential it may hold", () => {
  beforeAll(() => buildBridges(), 120_000);

  it("exits 2 with no credential, saying what to pass", () => {
    for (const bridge of BRIDGES) {
      const run = parley(bridge(["--server", baseUrl()]));
      expect(run.status, bridge([]).join(" ")).toBe(2);
      expect(run.printed).toMatch(/refusing to start: no credential; .*--agent-key/);
    }
  });

  it("exits 2 with a link it cannot classify, the gateway token, or a session's owner link, printing none of them", async () => {
    const session = await scriptedSession([say("unused")]);
    const owner = buildShareUrl(baseUrl(), session);
    const unknown = `${baseUrl()}/#/s/${session.sessionId}?token=not-a-token-parley-issues`;
    const cases: Array<[string[], string]> = [
      [["--link", unknown], "not-a-token-parley-issues"],
      [["--link", owner], session.token],
      [["--server", baseUrl(), "--token", gatewayToken()], gatewayToken()],
      [["--server", baseUrl(), "--agent-key", gatewayToken()], gatewayToken()],
    ];
    for (const bridge of BRIDGES) {
      for (const [credential, secret] of cases) {
        const run = parley(bridge(credential));
        expect(run.status, `${bridge([]).join(" ")} ${credential[0]}`).toBe(2);
        expect(run.printed).toMatch(/^parley: refusing to start: /);
        expect(run.printed).not.toContain(secret);
      }
    }
  });

  it("refuses parley attach a link as an argument with exit 2, without printing it", () => {
    // Refused by its place alone, before any request: an owner token's shape is enough.
    const token = "C".repeat(43);
    const run = parley(["attach", `${baseUrl()}/#/s/${"0".repeat(32)}?token=${token}`]);
    expect(run.status).toBe(2);
    expect(run.printed).toMatch(/--link-file FILE, on standard input, or paste it when asked/);
    expect(run.printed).not.toContain(token);
  });
});

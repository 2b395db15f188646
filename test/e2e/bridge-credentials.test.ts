// Every bridge entry of the `parley` command, run for real against the suite's server: with no
// credential, a link whose token Parley never issued, or a credential that can answer (the gateway
// token, a session's owner link), each exits 2 before it connects, and nothing it prints holds
// the token it was given.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildShareUrl } from "../../client/session-link";
import { buildBridges } from "./claude-code-harness";
import { baseUrl, gatewayToken, say, scriptedSession } from "./harness";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `parley <args>` with no Parley variables of the caller's; its exit code and all it printed. */
function parley(args: string[]): Promise<{ status: number | null; printed: string }> {
  const env = { ...process.env };
  for (const name of ["PARLEY_SERVER", "PARLEY_AGENT_KEY", "PARLEY_TOKEN", "PARLEY_LINK"]) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/parley.mjs", ...args], { cwd: ROOT, env, timeout: 60_000 });
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
    });
    child.stdin.end();
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, printed }));
  });
}

const BRIDGES: Array<(credential: string[]) => string[]> = [
  (credential) => ["mcp", ...credential],
  (credential) => ["hook", ...credential],
  (credential) => ["acp", ...credential, "--", process.execPath, "-e", "setTimeout(() => {}, 60000)"],
];

describe("a bridge started without a credential it may hold", () => {
  beforeAll(() => buildBridges(), 120_000);

  it("exits 2 with no credential, saying what to pass", async () => {
    const runs = BRIDGES.map(async (bridge) => ({
      bridge,
      run: await parley(bridge(["--server", baseUrl()])),
    }));
    for (const { bridge, run } of await Promise.all(runs)) {
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
    // Each bridge is a Node process of its own; they start side by side, as a busy machine would
    // otherwise spend most of the test starting twelve of them one after another.
    const runs = BRIDGES.flatMap((bridge) =>
      cases.map(async ([credential, secret]) => ({
        bridge,
        credential,
        secret,
        run: await parley(bridge(credential)),
      })),
    );
    for (const { bridge, credential, secret, run } of await Promise.all(runs)) {
      expect(run.status, `${bridge([]).join(" ")} ${credential[0]}`).toBe(2);
      expect(run.printed).toMatch(/^parley: refusing to start: /);
      expect(run.printed).not.toContain(secret);
    }
  }, 90_000);

  it("refuses parley attach a link as an argument with exit 2, without printing it", async () => {
    // Refused by its place alone, before any request: an owner token's shape is enough.
    const token = "C".repeat(43);
    const run = await parley(["attach", `${baseUrl()}/#/s/${"0".repeat(32)}?token=${token}`]);
    expect(run.status).toBe(2);
    expect(run.printed).toMatch(/--link-file FILE, on standard input, or paste it when asked/);
    expect(run.printed).not.toContain(token);
  });
});

// A Claude Code bridge given a link that does not open a session says so in one line and exits
// with code 2, before Claude Code sends it anything.
import { spawnSync } from "node:child_process";
import process from "node:process";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { buildBridges, externalSession, PARLEY_BIN } from "./claude-code-harness";
import { baseUrl } from "./harness";

function bridge(args: string[], stdin = "") {
  return spawnSync(process.execPath, [PARLEY_BIN, ...args], {
    input: stdin,
    encoding: "utf8",
    timeout: 30_000,
  });
}

describe.skipIf(!hasChromium)("a Claude Code bridge given a bad link", () => {
  beforeAll(() => buildBridges());

  it("parley mcp exits 2 with one line for a link whose token the session does not know", async () => {
    const session = await externalSession(baseUrl(), `links-${Date.now()}`);
    // A token of an agent link's shape (so the bridge starts and asks the session) that the
    // session never issued: its last characters changed.
    const forged = session.agentLink.replace(/token=([^&]+)/, (_, token: string) => {
      const tail = token.slice(-4);
      const changed = [...tail].map((c) => (c === "A" ? "B" : "A")).join("");
      return `token=${token.slice(0, -4)}${changed}`;
    });
    const result = bridge(["mcp", "--link", forged]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^parley: this link does not open a session/);
  });

  it("parley hook exits 2 with one line for something that is not a link at all", () => {
    const result = bridge(["hook", "--link", "not a link"], '{"hook_event_name":"Stop"}');
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("holds no token Parley issues");
  });
});

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBridges } from "./claude-code-harness";
import { baseUrl, gatewayToken } from "./harness";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe.skipIf(!baseUrl())("the typed client as the package exports it (parley/client, Node 22)", () => {
  beforeAll(() => {
    buildBridges();
  });

  it("runs the example of docs/guide-api.md: creates a session, streams it and answers its question and approval", async () => {
    const run = spawnSync(process.execPath, ["docs/examples/answer-from-a-script.mjs", baseUrl()], {
      cwd: ROOT,
      env: { ...process.env, PARLEY_TOKEN: gatewayToken() },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    // Only an answered question and an approved edit lead the demo model to these closing words.
    expect(run.stdout).toMatch(/Done — the note “demo” is saved in this session/);
    expect(run.stdout).toMatch(/an edit you approved/);
  });
});

// The real Claude Code with `parley mcp --agent-key`: its approval reaches the person, who alone
// can answer it; the agent key the bridge holds is refused by the inbox, the answer routes and the
// owner routes; and a bridge handed a credential that answers refuses to start.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ClaudeRun,
  externalSession,
  hasClaude,
  mcpConfig,
  mintAgentKey,
  PARLEY_BIN,
  Phone,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, reportLastResult, startModelServer, touch } from "./claude-model-server";
import { baseUrl } from "./harness";

let model: ModelServer | undefined;
let box: Sandbox | undefined;
let phone: Phone | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  run?.child.kill("SIGKILL");
  phone?.close();
  await model?.close();
  await box?.remove();
  model = box = phone = run = undefined;
});

function withKey(method: string, path: string, key: string, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.skipIf(!hasChromium || !hasClaude)("Claude Code with parley mcp --agent-key", () => {
  beforeAll(() => {
    buildBridges();
  });

  it("asks the person, whose approval runs the tool, while its key can neither read nor answer", {
    timeout: 90_000,
  }, async () => {
    const sessionKey = randomUUID();
    const agentKey = await mintAgentKey(baseUrl(), "Claude Code e2e");
    // The person's side: the owner's token of the session Claude Code will use, as the inbox opens it.
    const session = await externalSession(baseUrl(), sessionKey);
    phone = new Phone(baseUrl(), session);
    model = await startModelServer([touch("approved.txt"), reportLastResult]);
    box = await sandbox(model);
    const config = await mcpConfig(box, ["--server", baseUrl(), "--agent-key", agentKey]);
    run = runClaude(box, "Do the task.", [
      "--mcp-config",
      config,
      "--permission-prompt-tool",
      "mcp__parley__approve",
      "--session-id",
      sessionKey,
    ]);
    const card = await phone.nextPrompt();
    expect(JSON.stringify(card.data)).toContain("touch approved.txt");

    // What the bridge holds cannot answer the card, read the inbox, or reach any owner route.
    const S = `/api/sessions/${session.sessionId}`;
    const refused: Array<[string, string, unknown?]> = [
      ["GET", "/api/inbox"],
      [
        "POST",
        `/api/inbox/cards/${session.sessionId}/${card.interactionId}/respond`,
        { response: { decision: "approve" } },
      ],
      ["POST", `${S}/approve`, { toolCallId: card.interactionId }],
      ["POST", `${S}/respond`, { interactionId: card.interactionId, response: { decision: "approve" } }],
      ["GET", S],
      ["POST", `${S}/links`, { role: "answer" }],
      ["POST", `${S}/owner-token`, {}],
      ["DELETE", S],
    ];
    for (const [method, path, body] of refused) {
      expect((await withKey(method, path, agentKey, body)).status, `${method} ${path}`).toBe(403);
    }
    // Re-creating the session with the key finds it, and still gives no owner credential.
    const again = await withKey("POST", "/api/sessions", agentKey, {
      agent: { kind: "external", name: "Claude Code", key: sessionKey },
    });
    expect(again.status).toBe(200);
    const found = (await again.json()) as Record<string, unknown>;
    expect(found.sessionId).toBe(session.sessionId);
    expect(found).not.toHaveProperty("token");
    expect(found).not.toHaveProperty("shareUrl");
    expect(existsSync(join(box.cwd, "approved.txt"))).toBe(false);

    await phone.respond(card.interactionId, { decision: "approve" });
    const { code, stdout } = await run.done;
    expect(code, stdout).toBe(0);
    expect(existsSync(join(box.cwd, "approved.txt"))).toBe(true);
  });

  it("will not start parley mcp with a credential that can answer", async () => {
    const session = await externalSession(baseUrl(), randomUUID());
    const given: Array<[string[], string]> = [
      [["--token", "the-gateway-token"], "gateway token"],
      [["--token", session.token], "owner token"],
      [["--link", session.shareUrl], "owner token"],
    ];
    for (const [args, what] of given) {
      const started = spawnSync(process.execPath, [PARLEY_BIN, "mcp", "--server", baseUrl(), ...args], {
        encoding: "utf8",
        input: "",
        timeout: 20_000,
      });
      expect(started.status, args.join(" ")).toBe(2);
      expect(started.stderr).toMatch(/^parley: refusing to start: .+\n$/);
      expect(started.stderr).toContain(what);
    }
  });

  it("will not start parley acp with a credential that can answer, before it starts the agent", async () => {
    const session = await externalSession(baseUrl(), randomUUID());
    for (const args of [
      ["--token", "the-gateway-token"],
      ["--link", session.shareUrl],
    ]) {
      // The agent command would leave a file behind if it ever ran.
      const marker = join(tmpdir(), `parley-acp-refused-${randomUUID()}`);
      const started = spawnSync(
        process.execPath,
        [
          PARLEY_BIN,
          "acp",
          "--server",
          baseUrl(),
          ...args,
          "--",
          process.execPath,
          "-e",
          `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`,
        ],
        { encoding: "utf8", input: "", timeout: 20_000 },
      );
      expect(started.status, args.join(" ")).toBe(2);
      expect(started.stderr).toMatch(/^parley: refusing to start: .+\n$/);
      expect(existsSync(marker)).toBe(false);
    }
  });
});

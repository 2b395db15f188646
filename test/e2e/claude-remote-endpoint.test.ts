// The Worker's remote MCP endpoint with the real `claude`, when the connection holding the wait is
// lost (a network drop, or Parley restarting): the call ends with an error instead of hanging, the
// tool does not run, and the card is still open in Parley for a repeat call to re-attach to.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  type ClaudeRun,
  externalSession,
  hasClaude,
  Phone,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, reportLastResult, startModelServer, touch } from "./claude-model-server";
import { baseUrl } from "./harness";

/** A TCP relay to Parley that can go down: its open connections cut, and no new ones taken. */
async function relay(target: URL): Promise<{ url: string; close(): void }> {
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const close = () => {
    server.close();
    for (const socket of open) socket.resetAndDestroy();
  };
  return { url: `http://127.0.0.1:${port}`, close };
}

let model: ModelServer | undefined;
let box: Sandbox | undefined;
let phone: Phone | undefined;
let run: ClaudeRun | undefined;
let link: Awaited<ReturnType<typeof relay>> | undefined;
afterEach(async () => {
  run?.child.kill("SIGKILL");
  phone?.close();
  link?.close();
  await model?.close();
  await box?.remove();
  model = box = phone = run = link = undefined;
});

describe.skipIf(!hasChromium || !hasClaude)(
  "Claude Code on the remote endpoint when the connection is lost",
  () => {
    it("ends the call with a connection error, runs nothing, and leaves the card open", {
      timeout: 60_000,
    }, async () => {
      const session = await externalSession(baseUrl(), randomUUID());
      phone = new Phone(baseUrl(), session);
      link = await relay(new URL(baseUrl()));
      model = await startModelServer([touch("remote.txt"), reportLastResult]);
      box = await sandbox(model);
      const config = join(box.home, "parley-remote.json");
      const url = `${link.url}/api/sessions/${session.sessionId}/mcp`;
      const headers = { Authorization: `Bearer ${session.agentToken}` };
      await writeFile(config, JSON.stringify({ mcpServers: { parley: { type: "http", url, headers } } }));
      run = runClaude(box, "Make the file.", [
        "--mcp-config",
        config,
        "--permission-prompt-tool",
        "mcp__parley__approve",
      ]);
      const card = await phone.nextPrompt();

      // The network stays down: a client that reconnects at once would otherwise re-attach to the
      // open card (as designed) and wait for an answer this test never gives.
      link.close();
      const { code, stdout } = await run.done;
      expect(code, stdout).toBe(0);
      expect(existsSync(join(box.cwd, "remote.txt"))).toBe(false);
      // Claude Code words the lost connection by where the cut caught the call: a socket error, or
      // its own "connection closed before the tool call was answered".
      expect(model.toolResults().at(-1)).toMatch(
        /ECONNRESET|ECONNREFUSED|connection was closed|connection closed before the tool call was answered/,
      );

      const stored = await fetch(
        `${baseUrl()}/api/sessions/${session.sessionId}/interactions/${card.interactionId}`,
        {
          headers: { authorization: `Bearer ${session.agentToken}` },
        },
      );
      expect(await stored.json()).toMatchObject({ status: "pending", key: "toolu_touch_remotetxt" });
    });
  },
);

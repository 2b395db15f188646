// The gateway serves its own `parley` command as a package: `npx -y <gateway>/cli/parley.tgz` runs
// on a machine with Node and nothing else — a fresh HOME and npm cache, no registry within reach,
// or npm offline — prints the gateway's version, and bridges a real approval. A command that meets a
// gateway of another version says so in one line, and never prints the gateway's text as it came.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";
import { externalSession, mintAgentKey, Phone, ROOT } from "./claude-code-harness";
import { baseUrl } from "./harness";

const VERSION = (JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;

let scratch = "";
let children: ChildProcess[] = [];
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "parley-cli-package-"));
});
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children = [];
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A machine with Node only: its own empty HOME and npm cache, and no Parley or npm settings of ours. */
async function bareMachine(name: string, npm: Record<string, string>): Promise<Record<string, string>> {
  const home = join(scratch, name, "home");
  await mkdir(join(home, ".npm"), { recursive: true });
  return {
    // The same Node as the suite's (22, which the command needs), then the system's npx.
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    npm_config_cache: join(home, ".npm"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...npm,
  };
}

/** Runs a command to its end; its exit code and what it printed. */
function run(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

/** An MCP client on a child's stdio: one JSON-RPC message a line each way. */
function mcpClient(child: ChildProcess) {
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let buffered = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
      buffered = buffered.slice(end + 1);
      if (typeof message.id === "number") waiting.get(message.id)?.(message);
    }
  });
  let nextId = 1;
  return {
    request(method: string, params: unknown): Promise<Record<string, unknown>> {
      const id = nextId++;
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    notify(method: string): void {
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
    },
  };
}

describe.skipIf(!hasChromium)("the command the gateway serves", () => {
  it("is a gzipped package at one address beside the version it reports, and no other name is a file", async () => {
    const stable = await fetch(`${baseUrl()}/cli/parley.tgz`);
    expect(stable.status).toBe(200);
    expect(stable.headers.get("content-type")).toBe("application/gzip");
    const bytes = Buffer.from(await stable.arrayBuffer());
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const reported = await fetch(`${baseUrl()}/cli/version.json`);
    expect(await reported.json()).toEqual({ version: VERSION, cli: "/cli/parley.tgz" });
    // Any other name under /cli/ (a version the gateway does not serve) is refused, never answered
    // with the page, which npm would try to unpack.
    for (const name of [`parley-cli-${VERSION}.tgz`, "parley-0.0.1.tgz", "parley.tgz/", "index.html"]) {
      const other = await fetch(`${baseUrl()}/cli/${name}`);
      expect(other.status, name).toBe(404);
      expect(await other.text(), name).not.toMatch(/<html/i);
    }
  });

  it("runs with npx from the gateway's address on a machine whose npm reaches no registry", {
    timeout: 180_000,
  }, async () => {
    // Any registry request goes to a port nobody listens on, and fails.
    const env = await bareMachine("from-url", {
      npm_config_registry: `http://127.0.0.1:${await freePort()}/`,
    });
    const folder = join(scratch, "from-url", "work");
    await mkdir(folder, { recursive: true });
    const result = await run("npx", ["-y", `${baseUrl()}/cli/parley.tgz`, "--version"], folder, env);
    expect(result.stderr).not.toMatch(/npm error/);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(VERSION);
  });

  it("runs parley mcp from the downloaded package with npm offline, and its approval reaches the person", {
    timeout: 180_000,
  }, async () => {
    const env = await bareMachine("offline", { npm_config_offline: "true" });
    const folder = join(scratch, "offline", "work");
    await mkdir(folder, { recursive: true });
    const tarball = await fetch(`${baseUrl()}/cli/parley.tgz`);
    await writeFile(join(folder, "parley.tgz"), Buffer.from(await tarball.arrayBuffer()));
    const sessionKey = randomUUID();
    const agentKey = await mintAgentKey(baseUrl(), "Packaged command e2e");
    const phone = new Phone(baseUrl(), await externalSession(baseUrl(), sessionKey));
    try {
      const child = spawn(
        "npx",
        ["-y", "./parley.tgz", "mcp", "--server", baseUrl(), "--agent-key", agentKey],
        // Claude Code names its session to MCP servers so; the person's session above has that key.
        { cwd: folder, env: { ...env, CLAUDE_CODE_SESSION_ID: sessionKey }, stdio: ["pipe", "pipe", "pipe"] },
      );
      children.push(child);
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const mcp = mcpClient(child);
      const hello = await mcp.request("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "cli-package-test", version: "1" },
      });
      expect(hello).toMatchObject({ result: { serverInfo: { name: "parley" } } });
      mcp.notify("notifications/initialized");
      const tools = (await mcp.request("tools/list", {})) as { result: { tools: Array<{ name: string }> } };
      expect(tools.result.tools.map((tool) => tool.name)).toEqual(["approve"]);

      const answer = mcp.request("tools/call", {
        name: "approve",
        arguments: {
          tool_name: "Bash",
          input: { command: "echo from-the-package" },
          tool_use_id: "toolu_pkg",
        },
      });
      const card = await phone.nextPrompt(60_000);
      expect(JSON.stringify(card.data)).toContain("echo from-the-package");
      await phone.respond(card.interactionId, { decision: "approve" });
      const result = (await answer) as { result: { content: Array<{ text: string }> } };
      expect(JSON.parse(result.result.content[0]?.text ?? "{}")).toMatchObject({ behavior: "allow" });
      expect(stderr).not.toMatch(/npm error|serves/);
    } finally {
      phone.close();
    }
  });
});

describe.skipIf(!hasChromium)("a command that meets a gateway of another version", () => {
  let unpacked = "";
  let agentKey = "";
  let gateway: Server;
  let served = "";
  let asked = 0;
  beforeAll(async () => {
    // The package as npm unpacks it; the stand-in gateway answers only the version it reports.
    unpacked = join(scratch, "unpacked");
    await mkdir(unpacked, { recursive: true });
    await writeFile(
      join(unpacked, "parley.tgz"),
      Buffer.from(await (await fetch(`${baseUrl()}/cli/parley.tgz`)).arrayBuffer()),
    );
    execFileSync("tar", ["xzf", "parley.tgz"], { cwd: unpacked });
    agentKey = await mintAgentKey(baseUrl(), "Version check e2e");
    gateway = createServer((request, response) => {
      asked++;
      response.setHeader("content-type", "application/json");
      response.end(request.url === "/cli/version.json" ? JSON.stringify({ version: served }) : "{}");
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => gateway.close(() => resolve())));

  /** `parley mcp` against the stand-in, its input closed at once: it exits once its start is done. */
  async function start(): Promise<string> {
    const address = gateway.address();
    const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const bin = join(unpacked, "package", "bin", "parley.mjs");
    const child = spawn(process.execPath, [bin, "mcp", "--server", origin, "--agent-key", agentKey], {
      env: { PATH: process.env.PATH ?? "", HOME: scratch },
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.end();
    await new Promise((resolve) => child.on("close", resolve));
    return stderr;
  }

  it("says in one line which version each side has and how to run the gateway's", async () => {
    served = "99.0.0";
    asked = 0;
    const stderr = await start();
    const origin = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
    expect(stderr).toBe(
      `parley: this command is ${VERSION} but ${origin} serves 99.0.0; run npx -y ${origin}/cli/parley.tgz\n`,
    );
    expect(asked).toBe(1);
  });

  it("prints nothing of a version that is not a plain version, such as terminal control codes", async () => {
    served = "9.9.9\u001b]0;owned\u0007\u001b[2J";
    asked = 0;
    const stderr = await start();
    expect(asked).toBe(1);
    expect(stderr).toBe("");
  });

  it("says nothing when both have the same version", async () => {
    served = VERSION;
    asked = 0;
    expect(await start()).toBe("");
    expect(asked).toBe(1);
  });
});

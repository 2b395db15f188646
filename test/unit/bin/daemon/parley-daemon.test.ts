// `parley daemon` against a stand-in Parley at the network's edge (a WebSocket server): it says
// hello with its allowlist only, answers a start it refuses with the reason, logs it, and stops
// for good when Parley closes its socket because its key was revoked.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { type WebSocket as ServerSocket, WebSocketServer } from "ws";
import { runDaemon } from "../../../../bin/parley-daemon";

const dir = mkdtempSync(join(tmpdir(), "parley-daemon-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const KEY = `pak_${"a".repeat(8)}.${"0".repeat(32)}.${"b".repeat(43)}`;
const SESSION = "0123456789abcdef0123456789abcdef";

class Exited extends Error {
  constructor(readonly code: number | undefined) {
    super(`exit ${code}`);
  }
}

/** Frames the daemon sends, in order, each waited for. */
class Inbox {
  private readonly frames: Record<string, unknown>[] = [];
  private wake: (() => void) | null = null;
  push(frame: Record<string, unknown>) {
    this.frames.push(frame);
    this.wake?.();
  }
  async next(): Promise<Record<string, unknown>> {
    while (this.frames.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.frames.shift() as Record<string, unknown>;
  }
}

describe("parley daemon", () => {
  it("refuses a start outside its config, telling Parley why and logging it, and exits 1 once its key is revoked", async () => {
    const config = join(dir, "daemon.json");
    writeFileSync(
      config,
      JSON.stringify({
        label: "Test box",
        agents: { claude: { command: ["claude-agent-acp", "--secret-flag"], protocol: "acp" } },
        folders: ["/srv/project"],
      }),
    );
    chmodSync(config, 0o600);
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const received = new Inbox();
    const seen: { authorization?: string; url?: string } = {};
    const connected = new Promise<ServerSocket>((resolve) =>
      server.on("connection", (socket, request) => {
        seen.authorization = request.headers.authorization;
        seen.url = request.url;
        socket.on("message", (data) => received.push(JSON.parse(String(data))));
        resolve(socket);
      }),
    );
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Exited(code as number | undefined);
    });
    const port = (server.address() as AddressInfo).port;
    const running = runDaemon([
      "--server",
      `http://127.0.0.1:${port}`,
      "--agent-key",
      KEY,
      "--config",
      config,
    ]).then(
      () => null,
      (error: unknown) => (error instanceof Exited ? error.code : Promise.reject(error)),
    );
    const socket = await connected;
    expect(seen).toEqual({ authorization: `Bearer ${KEY}`, url: "/api/machines/connect" });
    // Names and protocols only: the commands (and their flags) never leave the machine.
    expect(await received.next()).toEqual({
      type: "hello",
      label: "Test box",
      agents: [{ name: "claude", protocol: "acp" }],
      folders: ["/srv/project"],
    });
    socket.send(JSON.stringify({ type: "registered", machineId: "0".repeat(32) }));
    const start = {
      type: "start",
      sessionId: SESSION,
      agentLink: `https://parley.example/#/s/${SESSION}?token=t`,
      protocol: "acp",
      agent: "claude",
      folder: "/srv/project",
      text: "hi",
    };
    socket.send(JSON.stringify({ ...start, agent: "bash" }));
    expect(await received.next()).toMatchObject({ type: "start_ack", sessionId: SESSION, started: false });
    socket.send(JSON.stringify({ ...start, folder: "/etc" }));
    const folder = await received.next();
    expect(folder).toMatchObject({ type: "start_ack", started: false });
    expect(folder.reason).toContain("/etc");
    socket.send(JSON.stringify({ ...start, command: ["sh", "-c", "id"] }));
    expect(await received.next()).toMatchObject({ type: "start_ack", started: false });
    socket.close(4001, "This machine's agent key was revoked");
    expect(await running).toBe(1);
    const log = written.join("");
    expect(log).toContain('refused a start: this machine\'s config offers no agent "bash"');
    expect(log).toContain("refused a start: this machine's config does not offer the folder /etc");
    expect(log).toContain("agent key was revoked: it takes no more work");
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});

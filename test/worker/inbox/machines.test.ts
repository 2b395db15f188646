// Machines: a `parley daemon` connects with its agent key and advertises what its config allows;
// only the person in person lists machines, asks one to start an agent, and stops the session.
// The daemon's side of the socket is played by the test, frame by frame, over the real Worker.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MachineCommand, MachineView, MintedAgentKey } from "../../../src/protocol";
import { ORIGIN } from "../../helpers/session-harness";
import { Person } from "./inbox-fixtures";

const FOLDER = "/home/ana/project";

async function mintKey(person: Person, label = "Laptop"): Promise<MintedAgentKey> {
  const response = await person.api("POST", "/api/agent-keys", { body: { label } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as MintedAgentKey;
}

/** The agent link at work: Access lets the bridge's machine through, the link does the rest. */
function asAgent(person: Person, method: string, path: string, token: string, body?: unknown) {
  return person.api(method, path, { token, ...(body === undefined ? {} : { body }) });
}

/** A request carrying only `token` (no Access assertion). */
function bare(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The daemon's end of the machine socket: what it is sent, and what it answers. */
class Daemon {
  readonly received: MachineCommand[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      this.received.push(JSON.parse(String(event.data)) as MachineCommand);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.addEventListener("close", (event) => {
      this.closed = { code: event.code, reason: event.reason };
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async connect(key: string, label = "Ana's laptop"): Promise<Daemon> {
    const response = await exports.default.fetch(`${ORIGIN}/api/machines/connect`, {
      headers: { upgrade: "websocket", authorization: `Bearer ${key}` },
    });
    const socket = response.webSocket;
    if (!socket) throw new Error(`no websocket: ${response.status} ${await response.text()}`);
    socket.accept();
    const daemon = new Daemon(socket);
    daemon.send({
      type: "hello",
      label,
      agents: [
        { name: "claude", protocol: "acp" },
        { name: "cc", protocol: "claude-code" },
      ],
      folders: [FOLDER],
    });
    await daemon.next("registered");
    return daemon;
  }

  close(): void {
    this.socket.close(1000, "done");
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame));
  }

  async next<T extends MachineCommand["type"]>(type: T): Promise<Extract<MachineCommand, { type: T }>> {
    for (;;) {
      const found = this.received.find((command) => command.type === type);
      if (found) {
        this.received.splice(this.received.indexOf(found), 1);
        return found as Extract<MachineCommand, { type: T }>;
      }
      if (this.closed) throw new Error(`closed before a ${type}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async untilClosed(): Promise<{ code: number; reason: string }> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.closed;
  }
}

async function machines(person: Person): Promise<MachineView[]> {
  const response = await person.api("GET", "/api/machines");
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { machines: MachineView[] }).machines;
}

/** The machine as listed (its daemon connects with Daemon.connect, which waits until it is registered). */
async function listed(person: Person, machineId: string): Promise<MachineView | undefined> {
  return (await machines(person)).find((machine) => machine.machineId === machineId);
}

const start = (person: Person, machineId: string, body: unknown) =>
  person.api("POST", `/api/machines/${machineId}/sessions`, { body });

describe("machines", () => {
  it("are listed for their person with what the daemon's config offers, online while it is connected", async () => {
    const ana = new Person("ana.machines@example.com");
    const key = await mintKey(ana);
    const daemon = await Daemon.connect(key.key);
    expect(await listed(ana, key.keyId)).toMatchObject({
      machineId: key.keyId,
      label: "Ana's laptop",
      online: true,
      agents: [
        { name: "claude", protocol: "acp" },
        { name: "cc", protocol: "claude-code" },
      ],
      folders: [FOLDER],
    });
    expect(await machines(new Person("bo.machines@example.com"))).toEqual([]);
    daemon.send({ type: "not a frame" });
    expect((await listed(ana, key.keyId))?.online).toBe(true);
  });

  it("start an agent the person asks for: the daemon is sent the agent link and answers, and the session is the person's", async () => {
    const ana = new Person("ana.start@example.com");
    const key = await mintKey(ana);
    const daemon = await Daemon.connect(key.key);

    const asked = start(ana, key.keyId, { agent: "claude", folder: FOLDER, text: "Fix the failing test" });
    const command = await daemon.next("start");
    expect(command).toMatchObject({
      agent: "claude",
      folder: FOLDER,
      text: "Fix the failing test",
      protocol: "acp",
    });
    expect(command.agentLink).toContain(`/#/s/${command.sessionId}?token=`);
    daemon.send({ type: "start_ack", sessionId: command.sessionId, started: true });
    const response = await asked;
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await response.json()).toEqual({ sessionId: command.sessionId });
    // The agent link the daemon passes on opens the session as its agent, and never answers.
    const token = new URL(command.agentLink).hash.split("token=")[1] as string;
    const opened = await asAgent(ana, "POST", `/api/sessions/${command.sessionId}/interactions`, token, {
      kind: "approval",
      request: { toolName: "Bash", input: { command: "npm test" } },
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    // The session's page says which agent it is and where it runs: the folder, on this machine.
    const snapshot = await asAgent(ana, "GET", `/api/sessions/${command.sessionId}`, token);
    expect(await snapshot.json()).toMatchObject({
      agent: { kind: "external", name: "claude", folder: FOLDER, machine: "Ana's laptop" },
    });
  });

  it("refuse an agent or folder the machine does not offer, before anything is made or sent", async () => {
    const ana = new Person("ana.allowlist@example.com");
    const key = await mintKey(ana);
    const daemon = await Daemon.connect(key.key);

    const agent = await start(ana, key.keyId, { agent: "bash", folder: FOLDER, text: "hi" });
    expect(agent.status).toBe(403);
    expect(((await agent.json()) as { error: { message: string } }).error.message).toContain(
      'no agent "bash"',
    );
    const folder = await start(ana, key.keyId, { agent: "claude", folder: "/etc", text: "hi" });
    expect(folder.status).toBe(403);
    expect(((await folder.json()) as { error: { message: string } }).error.message).toContain("/etc");
    expect(daemon.received).toEqual([]);
  });

  it("pass on the daemon's own refusal to the person, and stop the session made for it", async () => {
    const ana = new Person("ana.refusal@example.com");
    const key = await mintKey(ana);
    const daemon = await Daemon.connect(key.key);

    const asked = start(ana, key.keyId, { agent: "claude", folder: FOLDER, text: "hi", worktree: true });
    const command = await daemon.next("start");
    daemon.send({
      type: "start_ack",
      sessionId: command.sessionId,
      started: false,
      reason: "not a git folder",
    });
    const response = await asked;
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "not a git folder",
    );
    const message = await ana.api("POST", `/api/inbox/sessions/${command.sessionId}/messages`, {
      body: { text: "still there?" },
    });
    expect(message.status).toBe(409);
  });

  it("answer 404 for an unknown machine, 409 for one that is offline and 400 for a malformed body", async () => {
    const ana = new Person("ana.errors@example.com");
    const key = await mintKey(ana);
    const unknown = await start(ana, "0".repeat(32), { agent: "claude", folder: FOLDER, text: "hi" });
    expect(unknown.status).toBe(404);
    const daemon = await Daemon.connect(key.key);

    for (const body of [
      {},
      { agent: "claude", folder: "relative/path", text: "hi" },
      { agent: "claude", folder: FOLDER, text: "hi", extra: 1 },
    ]) {
      const malformed = await start(ana, key.keyId, body);
      expect(malformed.status, JSON.stringify(body)).toBe(400);
    }
    daemon.close();
    await daemon.untilClosed();
    expect((await listed(ana, key.keyId))?.online).toBe(false);
    const offline = await start(ana, key.keyId, { agent: "claude", folder: FOLDER, text: "hi" });
    expect(offline.status).toBe(409);
    expect(((await offline.json()) as { error: { code: string } }).error.code).toBe("machine_offline");
  });

  it("cannot be listed, started or connected by an agent key, an agent link or an inbox link", async () => {
    const ana = new Person("ana.refusals@example.com");
    const key = await mintKey(ana);
    const daemon = await Daemon.connect(key.key);

    const body = { agent: "claude", folder: FOLDER, text: "hi" };
    expect((await bare("GET", "/api/machines", key.key)).status).toBe(403);
    expect((await bare("POST", `/api/machines/${key.keyId}/sessions`, key.key, body)).status).toBe(403);
    const made = (await (
      await bare("POST", "/api/sessions", key.key, { agent: { kind: "external", name: "Claude Code" } })
    ).json()) as { sessionId: string; agentToken: string };
    expect((await bare("GET", "/api/machines", made.agentToken)).status).toBe(401);
    expect((await bare("POST", `/api/machines/${key.keyId}/sessions`, made.agentToken, body)).status).toBe(
      401,
    );
    expect((await bare("POST", `/api/sessions/${made.sessionId}/stop`, made.agentToken)).status).toBe(401);
    expect((await bare("POST", `/api/sessions/${made.sessionId}/stop`, key.key)).status).toBe(403);
    for (const role of ["view", "answer"]) {
      const link = (await (await ana.api("POST", "/api/inbox/links", { body: { role } })).json()) as {
        token: string;
      };
      expect((await bare("POST", `/api/machines/${key.keyId}/sessions`, link.token, body)).status).toBe(401);
      expect((await bare("GET", "/api/machines", link.token)).status).toBe(401);
    }
    // The person's own credential is not a machine's.
    const connect = await ana.api("GET", "/api/machines/connect");
    expect(connect.status).toBe(403);
    expect(daemon.received).toEqual([]);
  });

  it("stop: the session takes no more messages, its open card is withdrawn and the daemon is told", async () => {
    const ana = new Person("ana.stop@example.com");
    const key = await mintKey(ana);
    const daemon = await Daemon.connect(key.key);

    const asked = start(ana, key.keyId, { agent: "claude", folder: FOLDER, text: "Deploy" });
    const command = await daemon.next("start");
    daemon.send({ type: "start_ack", sessionId: command.sessionId, started: true });
    expect((await asked).status).toBe(201);
    const token = new URL(command.agentLink).hash.split("token=")[1] as string;
    const opened = await asAgent(ana, "POST", `/api/sessions/${command.sessionId}/interactions`, token, {
      kind: "approval",
      request: { toolName: "Bash", input: { command: "git push" } },
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const { interactionId } = (await opened.json()) as { interactionId: string };
    const other = await new Person("bo.stop@example.com").api(
      "POST",
      `/api/sessions/${command.sessionId}/stop`,
    );
    expect(other.status).toBe(403);
    const stopped = await ana.api("POST", `/api/sessions/${command.sessionId}/stop`);
    expect(stopped.status, await stopped.clone().text()).toBe(200);
    expect(await stopped.json()).toEqual({ stopped: true, withdrawn: 1, machineTold: true });
    expect(await daemon.next("stop")).toEqual({ type: "stop", sessionId: command.sessionId });
    const card = await asAgent(
      ana,
      "GET",
      `/api/sessions/${command.sessionId}/interactions/${interactionId}`,
      token,
    );
    expect(((await card.json()) as { status: string }).status).toBe("resolved");
    const message = await ana.api("POST", `/api/inbox/sessions/${command.sessionId}/messages`, {
      body: { text: "one more thing" },
    });
    expect(message.status).toBe(409);
  });

  it("end the daemon's connection when its key is revoked, and it is no longer listed", async () => {
    const ana = new Person("ana.revoke@example.com");
    const key = await mintKey(ana);
    const daemon = await Daemon.connect(key.key);

    expect((await ana.api("DELETE", `/api/agent-keys/${key.keyId}`)).status).toBe(200);
    expect((await daemon.untilClosed()).code).toBe(4001);
    expect(await machines(ana)).toEqual([]);
    const again = await exports.default.fetch(`${ORIGIN}/api/machines/connect`, {
      headers: { upgrade: "websocket", authorization: `Bearer ${key.key}` },
    });
    expect(again.status).toBe(403);
  });
});

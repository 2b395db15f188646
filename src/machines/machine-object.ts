// MachinesObject: one per person, the registry of their machines (each a `parley daemon` holding
// one agent key). Online means a live hibernatable socket tagged with the machine; a start is a row
// sent over that socket and acknowledged by the daemon, which alone decides whether it may.
// A separate object from the inbox on purpose: the inbox broadcasts cards to every socket it holds,
// and a daemon (an agent key) must never read a card.
import type { MachinesRpc } from "../objects/contracts/machines";
import type { Outcome } from "../objects/outcome";
import { ParleyObject } from "../objects/parley-object";
import { closeSocket, SOCKET_CLOSE } from "../objects/socket-access";
import {
  DaemonFrame,
  MACHINE_HEADER,
  type MachineCommand,
  MachineId,
  type MachineProtocol,
  type MachineStart,
  type MachineView,
  type StartMachineSessionBody,
} from "../protocol/machines/machines";
import { MachineStore } from "./machine-store";

/** How long a start waits for the daemon to say it started the agent or refused. */
export const START_ACK_MS = 15_000;

const offline = (label: string): Outcome<never> => ({
  ok: false,
  error: {
    code: "machine_offline",
    message: `${label} is offline: its parley daemon is not connected, so nothing was started`,
  },
});

export class MachinesObject extends ParleyObject implements MachinesRpc {
  protected readonly name = "MachinesObject";
  private readonly store: MachineStore;
  // INVARIANT: requests waiting for a daemon's answer to their start, in this instance only. A
  // waiter lost with the instance ends its request as unanswered; the answer is still stored.
  private readonly waiting = new Map<string, (ack: { started: boolean; reason?: string }) => void>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new MachineStore(ctx.storage.sql, this.clock.now);
  }

  /** No deadlines and no kept copies: a start's wait is its request's own. */
  protected stores(): null {
    return null;
  }

  /** A daemon's socket; the Worker checked its agent key and names the machine in a header. */
  protected async onRequest(request: Request): Promise<Response> {
    const machineId = MachineId.safeParse(request.headers.get(MACHINE_HEADER));
    if (!machineId.success || request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return Response.json(
        { code: "invalid_input", message: "Expected a daemon's WebSocket" },
        { status: 400 },
      );
    // One live socket per machine: a reconnecting daemon replaces its earlier one.
    this.closeSockets(machineId.data, 1000, "Replaced by a newer connection of this machine");
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [machineId.data]);
    server.serializeAttachment({ machineId: machineId.data });
    return new Response(null, { status: 101, webSocket: client });
  }

  async list(): Promise<MachineView[]> {
    return this.store.list().map((machine) => ({ ...machine, online: this.isOnline(machine.machineId) }));
  }

  /** Whether the machine advertises this agent and folder; the daemon checks again when asked. */
  async check(machineId: string, body: StartMachineSessionBody): Promise<Outcome<MachineProtocol>> {
    const machine = this.store.get(machineId);
    if (!machine) return { ok: false, error: { code: "not_found", message: "No such machine" } };
    if (!this.isOnline(machineId)) return offline(machine.label);
    const agent = machine.agents.find((one) => one.name === body.agent);
    if (!agent)
      return refusal(
        `${machine.label} offers no agent "${body.agent}" (it offers: ${names(machine.agents)})`,
      );
    if (!machine.folders.includes(body.folder))
      return refusal(`${machine.label} does not offer the folder ${body.folder}`);
    return { ok: true, result: agent.protocol };
  }

  /** Sends a start over the machine's socket and waits for the daemon's answer. */
  async start(machineId: string, start: MachineStart, waitMs = START_ACK_MS): Promise<Outcome<null>> {
    const machine = this.store.get(machineId);
    const socket = this.ctx.getWebSockets(machineId)[0];
    if (!machine || !socket) return offline(machine?.label ?? "This machine");
    this.store.recordStart({
      sessionId: start.sessionId,
      machineId,
      agent: start.agent,
      folder: start.folder,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<{ started: boolean; reason?: string } | null>((resolve) => {
      this.waiting.set(start.sessionId, resolve);
      timer = setTimeout(() => resolve(null), waitMs);
    });
    if (!this.send(machineId, start)) this.waiting.get(start.sessionId)?.({ started: false, reason: "lost" });
    const ack = await answered;
    clearTimeout(timer);
    this.waiting.delete(start.sessionId);
    if (!ack) {
      this.store.setStatus(start.sessionId, "refused", "unanswered");
      return offline(machine.label);
    }
    if (!ack.started) return refusal(`${machine.label} refused: ${ack.reason ?? "no reason given"}`);
    return { ok: true, result: null };
  }

  /** Marks a session the person stopped and tells its machine to end the agent; null when no machine started it. */
  async stop(sessionId: string): Promise<{ machineId: string; told: boolean } | null> {
    const start = this.store.startOf(sessionId);
    if (!start) return null;
    this.store.setStatus(sessionId, "stopped");
    return { machineId: start.machineId, told: this.send(start.machineId, { type: "stop", sessionId }) };
  }

  /** The machine's key was revoked: its socket closes and it takes no more work. */
  async revoke(machineId: string): Promise<void> {
    this.store.remove(machineId);
    this.closeSockets(machineId, SOCKET_CLOSE.revoked, "This machine's agent key was revoked");
  }

  /** A daemon's frame; the base logs what throws here (a socket without its machine's attachment). */
  protected override async onMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const machineId = MachineId.parse((ws.deserializeAttachment() as { machineId?: unknown }).machineId);
    const parsed = DaemonFrame.safeParse(JSON.parse(typeof message === "string" ? message : ""));
    if (!parsed.success) {
      ws.send(JSON.stringify({ type: "error", message: "Not a daemon frame" }));
      return;
    }
    const frame = parsed.data;
    if (frame.type === "hello") {
      this.store.advertise(machineId, frame);
      this.send(machineId, { type: "registered", machineId });
    } else if (frame.type === "start_ack") {
      if (this.store.startOf(frame.sessionId)?.machineId !== machineId) return;
      this.store.setStatus(frame.sessionId, frame.started ? "started" : "refused", frame.reason ?? null);
      this.waiting.get(frame.sessionId)?.({
        started: frame.started,
        ...(frame.reason ? { reason: frame.reason } : {}),
      });
    } else {
      const start = this.store.startOf(frame.sessionId);
      if (start?.machineId === machineId && start.status !== "stopped")
        this.store.setStatus(frame.sessionId, "ended");
    }
  }

  private isOnline(machineId: string): boolean {
    return this.ctx.getWebSockets(machineId).length > 0;
  }

  private send(machineId: string, command: MachineCommand): boolean {
    for (const ws of this.ctx.getWebSockets(machineId)) {
      try {
        ws.send(JSON.stringify(command));
        return true;
      } catch {
        // Closing; another socket of the machine (none, normally) may take it.
      }
    }
    return false;
  }

  private closeSockets(machineId: string, code: number, reason: string): void {
    for (const ws of this.ctx.getWebSockets(machineId)) closeSocket(ws, code, reason);
  }
}

function refusal(message: string): Outcome<never> {
  return { ok: false, error: { code: "forbidden", message } };
}

function names(agents: { name: string }[]): string {
  return agents.length > 0 ? agents.map((agent) => agent.name).join(", ") : "none";
}

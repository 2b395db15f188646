// SessionObject: one Durable Object per session. A thin shell — it parses input, hands it to the
// agent core, and lets the stores persist and broadcast. All state lives in SQLite.
import { DurableObject } from "cloudflare:workers";
import type { AgentDeps } from "../agent/agent-deps";
import { AgentLoop } from "../agent/agent-loop";
import { timeOutDue } from "../agent/resolve-interaction";
import { createAgentRegistry } from "../agents/agent-registry";
import { BUNDLED_AGENT_FILES } from "../agents/bundled-agents";
import { type Config, readConfig } from "../config";
import { BUILTIN_INTERACTIONS } from "../interactions/kinds";
import { createInteractionRegistry } from "../interactions/registry";
import type { ModelClient } from "../model/model-client";
import type { Notifier } from "../notify/notifier";
import type { SessionCommand } from "../protocol/commands";
import { describeZodError } from "../protocol/errors";
import { type AckFrame, type HelloFrame, PING, PONG } from "../protocol/frames";
import type { EventsPage } from "../protocol/http";
import type { PushSubscriptionBody } from "../protocol/notify";
import type { SessionSnapshot } from "../protocol/session";
import { BUILTIN_TOOLS } from "../tools/builtin";
import { createToolRegistry } from "../tools/registry";
import { type CommandOutcome, executeCommand } from "./command-handler";
import { EventStreams } from "./event-streams";
import { sessionNotifier } from "./session-notifier";
import { SessionState } from "./session-state";
import { type SessionInit, type SessionStats, StreamQuery, WebSocketQuery } from "./session-types";
import { parseCommandFrame } from "./socket-frames";

const tools = createToolRegistry(BUILTIN_TOOLS);
const kinds = createInteractionRegistry(BUILTIN_INTERACTIONS);
// A bad agent file fails here, at start-up, naming the file and the field.
const agents = createAgentRegistry(BUNDLED_AGENT_FILES, [
  ...tools.names(),
  ...kinds.toolSpecs().map((spec) => spec.name),
]);
const WATCHDOG_MS = 120_000;
/** Each subscribed device costs a push per card change; a token holder cannot add them without end. */
const MAX_PUSH_DEVICES = 20;

type Attachment = { deviceId: string };

export class SessionObject extends DurableObject<Env> {
  private readonly config: Config;
  private readonly state: SessionState;
  private readonly notifier: Notifier;
  private readonly streams: EventStreams;
  // INVARIANT: built lazily from stored settings; a new instance rebuilds the same thing.
  private runtime: { deps: AgentDeps; loop: AgentLoop; model: ModelClient } | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.config = readConfig(env as unknown as Record<string, unknown>);
    this.state = new SessionState(
      ctx.storage,
      (frame) => this.broadcast(frame),
      (event) => this.notifier.onEvent(event),
    );
    this.streams = new EventStreams(this.state.events);
    this.notifier = sessionNotifier(
      this.state,
      this.config,
      (deviceId) => ctx.getWebSockets(deviceId).length > 0,
    );
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
    // A new instance that finds a turn running (a model call or a tool) knows its runner is gone
    // (after a deploy or a crash): bring the watchdog forward so recovery starts now, not minutes later.
    if (this.state.exists() && this.state.turn.current() && this.state.turn.status() === "running") {
      this.state.deadlines.setWatchdog(Date.now());
    }
  }

  /** Called once by the Worker right after it picks a new session id. */
  async create(init: SessionInit): Promise<CommandOutcome> {
    if (this.state.exists())
      return { ok: false, error: { code: "invalid_input", message: "Session already exists" } };
    this.state.initialize(init);
    return { ok: true };
  }

  async snapshot(): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    return { ok: true, result: this.buildSnapshot() };
  }

  async eventsPage(after: number, limit: number): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    const frames = this.state.events.framesAfter(after, limit + 1);
    const page: EventsPage = {
      events: frames.slice(0, limit).map((frame) => JSON.parse(frame)),
      lastSeq: this.state.events.lastSeq,
      hasMore: frames.length > limit,
    };
    return { ok: true, result: page };
  }

  async command(command: SessionCommand, deviceId: string | null): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    const { deps, loop } = this.agent();
    return executeCommand({ deps, loop, sentMessages: this.state.sentMessages }, command, deviceId);
  }

  /** Stores this device's push subscription (replacing an older one of the same device). */
  async subscribePush(body: PushSubscriptionBody): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    const known = this.state.subscriptions.deviceIds();
    if (known.length >= MAX_PUSH_DEVICES && !known.includes(body.deviceId)) {
      return {
        ok: false,
        error: {
          code: "invalid_input",
          message: `A session takes push subscriptions from at most ${MAX_PUSH_DEVICES} devices`,
        },
      };
    }
    this.state.subscriptions.put(body.deviceId, body.subscription);
    return { ok: true, result: { deviceId: body.deviceId } };
  }

  async unsubscribePush(deviceId: string): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    return { ok: true, result: { removed: this.state.subscriptions.delete(deviceId) } };
  }

  /** The push and webhook delivery log, newest first. */
  async deliveries(): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    return { ok: true, result: { deliveries: this.state.deliveries.list() } };
  }

  async stats(): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    const stats: SessionStats = {
      ...this.state.stats(),
      sockets: this.ctx.getWebSockets().length,
      streams: this.streams.size,
    };
    return { ok: true, result: stats };
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.endsWith("/events/stream")) return this.openStream(url);
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return Response.json(
        { error: { code: "invalid_input", message: "Expected a WebSocket upgrade" } },
        { status: 426 },
      );
    }
    if (!this.state.exists()) return Response.json({ error: unknownSession().error }, { status: 404 });
    const query = WebSocketQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) {
      return Response.json(
        { error: { code: "invalid_input", message: describeZodError(query.error) } },
        { status: 400 },
      );
    }
    const deviceId = query.data.device ?? `device-${crypto.randomUUID().slice(0, 8)}`;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [deviceId]);
    server.serializeAttachment({ deviceId } satisfies Attachment);
    // Hello and replay are sent synchronously after accepting, so no live event can slip between.
    const hello: HelloFrame = { type: "hello", deviceId, snapshot: this.buildSnapshot() };
    server.send(JSON.stringify(hello));
    this.replayTo(server, query.data.after);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** `GET …/events/stream` (checked by the Worker): hello, replay after the cursor, then live. */
  private openStream(url: URL): Response {
    if (!this.state.exists()) return Response.json({ error: unknownSession().error }, { status: 404 });
    const query = StreamQuery.safeParse(Object.fromEntries(url.searchParams));
    if (!query.success) {
      return Response.json(
        { error: { code: "invalid_input", message: describeZodError(query.error) } },
        { status: 400 },
      );
    }
    const deviceId = query.data.device ?? `stream-${crypto.randomUUID().slice(0, 8)}`;
    return this.streams.open(query.data.after, { type: "hello", deviceId, snapshot: this.buildSnapshot() });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    let requestId: string | null = null;
    try {
      const parsed = parseCommandFrame(message);
      if (!parsed.ok)
        return sendAck(ws, { type: "ack", requestId: parsed.requestId, ok: false, error: parsed.error });
      const command = parsed.command;
      requestId = command.requestId ?? null;
      if (command.type === "resume") {
        this.replayTo(ws, command.after);
        return sendAck(ws, {
          type: "ack",
          requestId,
          ok: true,
          result: { lastSeq: this.state.events.lastSeq },
        });
      }
      const attachment = ws.deserializeAttachment() as Attachment | null;
      const outcome = await this.command(command, attachment?.deviceId ?? null);
      sendAck(
        ws,
        outcome.ok
          ? { type: "ack", requestId, ok: true, result: outcome.result }
          : { type: "ack", requestId, ok: false, error: outcome.error },
      );
    } catch (error) {
      console.error("SessionObject.webSocketMessage failed", error);
      sendAck(ws, {
        type: "ack",
        requestId,
        ok: false,
        error: { code: "internal", message: "Internal error" },
      });
    }
  }

  // Stored events after the cursor, then what the model streamed since the last stored one, so a
  // device joining mid-stream has the exact text before the next live delta reaches it.
  private replayTo(ws: WebSocket, after: number): void {
    for (const frame of this.state.events.replayFrames(after)) ws.send(frame);
    const unstored = this.runtime?.loop.unstoredDelta();
    if (unstored) ws.send(JSON.stringify(unstored));
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // Already closed by the runtime; nothing to do.
    }
  }

  override async alarm(): Promise<void> {
    if (!this.state.exists()) return;
    const { deps, loop } = this.agent();
    this.state.deadlines.fired();
    const now = deps.clock.now();
    // Deadlines are drained here and may throw, so the platform retries the alarm; the turn itself
    // runs on, like after any command, and reports its own failures as events.
    const timedOut = timeOutDue(deps, now) > 0;
    const resume = loop.checkWatchdog(now) || timedOut;
    this.state.deadlines.rearm();
    if (resume)
      loop.advance().catch((error: unknown) => console.error("SessionObject.alarm advance failed", error));
    // Notifications go out last: a slow push service or webhook must not hold up a timeout.
    if ((await this.notifier.deliverDue(now)) > 0) this.state.deadlines.rearm();
  }

  private agent(): { deps: AgentDeps; loop: AgentLoop; model: ModelClient } {
    if (this.runtime) return this.runtime;
    const model = this.state.createModel(this.config);
    const deps = this.state.agentDeps({
      model,
      tools,
      kinds,
      agents,
      settings: {
        model: this.config.model,
        maxTokens: this.config.maxTokens,
        interactionTimeoutMs: this.state.interactionTimeoutMs(this.config),
        maxTurnIterations: this.config.maxTurnIterations,
        watchdogMs: WATCHDOG_MS,
        maxFormsPerToolCall: this.config.maxFormsPerToolCall,
        maxAgentDepth: this.config.maxAgentDepth,
      },
    });
    this.runtime = { deps, loop: new AgentLoop(deps), model };
    return this.runtime;
  }

  /** The model client of this instance (tests read a scripted model's recorded requests). */
  get model(): ModelClient {
    return this.agent().model;
  }

  private buildSnapshot(): SessionSnapshot {
    return this.state.snapshot(this.agent().model, this.config);
  }

  private broadcast(frame: string): void {
    this.streams?.broadcast(frame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(frame);
      } catch {
        // A socket closing mid-broadcast must not stop the others.
      }
    }
  }
}

function sendAck(ws: WebSocket, frame: AckFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // The socket went away; the client resumes and reads the outcome from the event log.
  }
}

function unknownSession(): { ok: false; error: { code: "unknown_session"; message: string } } {
  return { ok: false, error: { code: "unknown_session", message: "No such session" } };
}

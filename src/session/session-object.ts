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
import { createSessionTools } from "../mcp/session-tools";
import type { ModelClient } from "../model/model-client";
import type { SessionCommand } from "../protocol/commands";
import { describeZodError } from "../protocol/errors";
import { type AckFrame, type HelloFrame, PING, PONG } from "../protocol/frames";
import type { EventsPage } from "../protocol/http";
import type { SessionSnapshot } from "../protocol/session";
import { BUILTIN_TOOLS } from "../tools/builtin";
import { createToolRegistry, type ToolRegistry } from "../tools/registry";
import { type CommandOutcome, executeCommand } from "./command-handler";
import { createLiveForms } from "./live-forms";
import { SessionState } from "./session-state";
import { type SessionInit, type SessionStats, WebSocketQuery } from "./session-types";
import { parseCommandFrame } from "./socket-frames";

const tools = createToolRegistry(BUILTIN_TOOLS);
const kinds = createInteractionRegistry(BUILTIN_INTERACTIONS);
// A bad agent file fails here, at start-up, naming the file and the field.
const agents = createAgentRegistry(BUNDLED_AGENT_FILES, [
  ...tools.names(),
  ...kinds.toolSpecs().map((spec) => spec.name),
]);
const WATCHDOG_MS = 120_000;

type Attachment = { deviceId: string };

export class SessionObject extends DurableObject<Env> {
  private readonly config: Config;
  private readonly state: SessionState;
  // INVARIANT: built lazily from stored settings; a new instance rebuilds the same thing.
  private runtime: { deps: AgentDeps; loop: AgentLoop; model: ModelClient } | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.config = readConfig(env as unknown as Record<string, unknown>);
    this.state = new SessionState(ctx.storage, (frame) => this.broadcast(frame));
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

  async stats(): Promise<CommandOutcome> {
    if (!this.state.exists()) return unknownSession();
    const stats: SessionStats = this.state.stats();
    return { ok: true, result: stats };
  }

  override async fetch(request: Request): Promise<Response> {
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
  }

  private agent(): { deps: AgentDeps; loop: AgentLoop; model: ModelClient } {
    if (this.runtime) return this.runtime;
    const model = this.state.createModel(this.config);
    const deps = this.state.agentDeps({
      model,
      tools: this.sessionTools(),
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

  /** The built-in tools, plus the tools of the MCP servers this session selected. */
  private sessionTools(): ToolRegistry {
    const selected = new Set(this.state.mcp.selected());
    if (selected.size === 0) return tools;
    return createSessionTools({
      builtin: BUILTIN_TOOLS,
      servers: this.config.mcpServers.filter((server) => selected.has(server.name)),
      store: this.state.mcp,
      calls: this.state.mcpCalls,
      // The forms need the agent's stores, which are built around this registry: read them lazily.
      live: createLiveForms(() => this.agent().deps),
      fetch: (input, init) => fetch(input, init),
      now: () => Date.now(),
      onProblem: (message) => this.state.events.append("error", { code: "mcp_server", message }),
    });
  }

  /** The model client of this instance (tests read a scripted model's recorded requests). */
  get model(): ModelClient {
    return this.agent().model;
  }

  private buildSnapshot(): SessionSnapshot {
    return this.state.snapshot(this.agent().model, this.config);
  }

  private broadcast(frame: string): void {
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

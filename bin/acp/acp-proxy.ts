// `parley acp -- <agent>` between an editor and an ACP agent: every message passes unchanged in
// both directions, except that `session/request_permission` and `elicitation/create` are raced
// between the editor and a Parley card (bin/acp/acp-proxy-races.ts). The first answer wins: a
// Parley answer goes to the agent and the editor's request is cancelled (`$/cancel_request`, its
// late answer dropped); an editor answer goes to the agent and the card is withdrawn. The agent is
// told the client shows both elicitation modes; one the editor does not show is asked in Parley
// alone. The person's messages in Parley become prompts on the editor's sessions when no turn
// runs, one sent with interrupt cancelling the turn first (bin/acp/acp-proxy-prompts.ts).
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { cardForElicitation, elicitationMode, elicitationSessionId } from "./acp-elicitation";
import {
  agentInfoOf,
  cancelledRequestId,
  classify,
  cwdOf,
  idKey,
  permissionParams,
  promptParams,
  sessionIdOf,
  updateParams,
  withElicitation,
} from "./acp-messages";
import { ProxyPrompts } from "./acp-proxy-prompts";
import { ProxyRaces } from "./acp-proxy-races";
import type { ParleySessions } from "./parley-sessions";

interface Asked {
  method: string;
  sessionId: string | null;
  /** The working folder the request names, for the session its answer names (`session/new`). */
  cwd: string | null;
}

/** Which side ended the run. */
export type ProxyEnd = "editor" | "agent";

export class AcpProxy {
  private readonly toEditor: WritableStreamDefaultWriter<AnyMessage>;
  private readonly toAgent: WritableStreamDefaultWriter<AnyMessage>;
  /** INVARIANT: in-flight state of this one connection; it ends with the process. */
  private readonly asked = new Map<string, Asked>();
  private readonly races: ProxyRaces;
  private readonly prompts: ProxyPrompts;
  /** The elicitation modes the editor shows itself (its `initialize`); Parley shows the rest alone. */
  private editorShows = { form: false, url: false };

  constructor(
    private readonly editor: Stream,
    private readonly agent: Stream,
    private readonly parley: ParleySessions,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`parley: ${line}\n`),
  ) {
    this.toEditor = editor.writable.getWriter();
    this.toAgent = agent.writable.getWriter();
    const toAgent = (message: AnyMessage) => this.send(this.toAgent, message);
    const toEditor = (message: AnyMessage) => this.send(this.toEditor, message);
    this.races = new ProxyRaces(toAgent, toEditor, log);
    this.prompts = new ProxyPrompts(parley, toAgent, toEditor, log, (sessionId) => this.interrupt(sessionId));
  }

  /** Runs until either side closes; resolves with the side that did. */
  async run(): Promise<ProxyEnd> {
    const end = await Promise.race([
      this.pump(this.editor.readable, (message) => this.fromEditor(message)).then(() => "editor" as const),
      this.pump(this.agent.readable, (message) => this.fromAgent(message)).then(() => "agent" as const),
    ]);
    this.prompts.end();
    return end;
  }

  private async pump(readable: ReadableStream<AnyMessage>, handle: (message: AnyMessage) => void) {
    const reader = readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        handle(value);
      }
    } catch (error) {
      this.log(`connection ended: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      reader.releaseLock();
    }
  }

  private send(writer: WritableStreamDefaultWriter<AnyMessage>, message: AnyMessage): void {
    // A side that has gone away ends the run through its own reader; nothing more to do here.
    writer.write(message).catch(() => {});
  }

  private fromEditor(message: AnyMessage): void {
    const seen = classify(message);
    if (seen?.type === "request") {
      const sessionId = sessionIdOf(seen.params);
      const cwd = cwdOf(seen.params);
      this.asked.set(idKey(seen.id), { method: seen.method, sessionId, cwd });
      // The editor names the folder each session works in; only it, never the agent, says where.
      if (sessionId && cwd !== null) this.parley.located(sessionId, cwd);
      if (seen.method === "session/prompt") {
        const prompt = promptParams(seen.params);
        if (prompt) {
          this.parley.prompt(prompt.sessionId, prompt.prompt);
          this.prompts.editorPrompted(prompt.sessionId);
        }
      } else if (seen.method === "initialize") {
        const advertised = withElicitation(seen.params);
        if (advertised) {
          this.editorShows = advertised.editor;
          this.send(this.toAgent, { ...message, params: advertised.params } as AnyMessage);
          return;
        }
      }
    } else if (seen?.type === "notification" && seen.method === "session/cancel") {
      // The editor answers what it holds, as ACP asks of it; the proxy answers what only Parley asks.
      const sessionId = sessionIdOf(seen.params);
      if (sessionId) this.races.cancelTurn(sessionId, true);
    } else if (seen?.type === "response") {
      // Parley answered first: the agent has its answer, and this one was cancelled anyway.
      if (this.races.editorAnswered(idKey(seen.id))) return;
    }
    this.send(this.toAgent, message);
  }

  /** The person asked to interrupt in Parley: the turn is cancelled as the editor's Stop would. */
  private interrupt(sessionId: string): void {
    this.send(this.toAgent, {
      jsonrpc: "2.0",
      method: "session/cancel",
      params: { sessionId },
    } as AnyMessage);
    // ACP's client answers the turn's open requests once it cancels: the editor did not cancel, so
    // the proxy answers them, and the editor drops its copies.
    this.races.cancelTurn(sessionId, false);
  }

  private fromAgent(message: AnyMessage): void {
    const seen = classify(message);
    if (seen?.type === "request" && seen.method === "session/request_permission") {
      const params = permissionParams(seen.params);
      if (params) this.racePermission(seen.id, params);
    } else if (seen?.type === "request" && seen.method === "elicitation/create") {
      // Asked in Parley alone when the editor does not show it: the editor never sees it.
      if (!this.raceElicitation(seen.id, seen.params)) return;
    } else if (seen?.type === "notification") {
      if (seen.method === "session/update") {
        const update = updateParams(seen.params);
        if (update) this.parley.update(update.sessionId, update.update);
      } else if (seen.method === "$/cancel_request") {
        // The agent gave up on its own request: the card goes; the editor's answer still reaches it.
        const requestId = cancelledRequestId(seen.params);
        if (requestId !== null && !this.races.agentGaveUp(requestId)) return;
      }
    } else if (seen?.type === "response") {
      // The answer to a prompt Parley sent for the person: the editor never asked it.
      if (this.prompts.answered(idKey(seen.id))) return;
      const asked = this.asked.get(idKey(seen.id));
      this.asked.delete(idKey(seen.id));
      if (asked?.method === "initialize" && seen.ok) this.parley.named(agentInfoOf(seen.result));
      // `session/new` answers with the session the folder it named belongs to.
      const made = seen.ok ? sessionIdOf(seen.result) : null;
      if (made && asked && asked.cwd !== null) this.parley.located(made, asked.cwd);
      if (asked?.method === "session/prompt" && asked.sessionId) {
        this.parley.stopped(asked.sessionId);
        this.prompts.editorTurnEnded(asked.sessionId);
      }
    }
    this.send(this.toEditor, message);
  }

  private racePermission(
    id: string | number,
    params: NonNullable<ReturnType<typeof permissionParams>>,
  ): void {
    this.races.start(id, {
      sessionId: params.sessionId,
      editor: true,
      cancelled: { outcome: { outcome: "cancelled" } },
      ask: (signal) => this.parley.ask(params, id, signal).then((outcome) => ({ outcome })),
    });
  }

  /**
   * Races an elicitation with the editor when it shows that mode; otherwise asks it in Parley alone,
   * answering the agent with an error when Parley cannot show it. True when the editor gets it.
   */
  private raceElicitation(id: string | number, params: unknown): boolean {
    const mode = elicitationMode(params);
    // A mode ACP does not define is the editor's to answer, as any message the proxy does not read.
    if (mode === null) return true;
    const editor = this.editorShows[mode];
    const card = cardForElicitation(params);
    const sessionId = elicitationSessionId(params) ?? this.sessionOfRequest(params);
    if (!card.ok || sessionId === null) {
      const why = card.ok ? "Parley asks only within a session" : card.message;
      if (editor) this.log(`${why}; the editor still asks`);
      else
        this.send(this.toAgent, {
          jsonrpc: "2.0",
          id,
          error: { code: -32602, message: `Invalid params: ${why}` },
        } as AnyMessage);
      return editor;
    }
    this.races.start(id, {
      sessionId,
      editor,
      cancelled: { action: "cancel" },
      ask: (signal) => this.parley.elicit(sessionId, card, signal),
    });
    return editor;
  }

  /** The session of the request a request-scoped elicitation names, when that request names one. */
  private sessionOfRequest(params: unknown): string | null {
    const requestId = (params as { requestId?: unknown }).requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return null;
    return this.asked.get(idKey(requestId))?.sessionId ?? this.prompts.sessionOf(idKey(requestId));
  }
}

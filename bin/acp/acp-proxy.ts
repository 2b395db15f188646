// `parley acp -- <agent>` between an editor and an ACP agent: every message passes unchanged in
// both directions, except that `session/request_permission` is raced between the editor and a
// Parley card. The first answer wins: a Parley answer goes to the agent and the editor's request
// is cancelled (`$/cancel_request`, its late answer dropped); an editor answer goes to the agent
// and the card is withdrawn. The agent never gets two answers. The person's messages in Parley
// become prompts on the editor's sessions when no turn runs (bin/acp/acp-proxy-prompts.ts).
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
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
} from "./acp-messages";
import { ProxyPrompts } from "./acp-proxy-prompts";
import { CardWithdrawn, type ParleySessions } from "./parley-sessions";

interface Race {
  /** Someone answered: the agent has its response. */
  settled: boolean;
  /** Ends the Parley side: the card is withdrawn. */
  parley: AbortController;
}

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
  private readonly races = new Map<string, Race>();
  private readonly asked = new Map<string, Asked>();
  private readonly prompts: ProxyPrompts;

  constructor(
    private readonly editor: Stream,
    private readonly agent: Stream,
    private readonly parley: ParleySessions,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`parley: ${line}\n`),
  ) {
    this.toEditor = editor.writable.getWriter();
    this.toAgent = agent.writable.getWriter();
    this.prompts = new ProxyPrompts(
      parley,
      (message) => this.send(this.toAgent, message),
      (message) => this.send(this.toEditor, message),
      log,
    );
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
      }
    } else if (seen?.type === "notification" && seen.method === "session/cancel") {
      const sessionId = sessionIdOf(seen.params);
      if (sessionId) this.parley.withdrawAll(sessionId);
    } else if (seen?.type === "response") {
      const race = this.races.get(idKey(seen.id));
      if (race) {
        this.races.delete(idKey(seen.id));
        // Parley answered first: the agent has its answer, and this one was cancelled anyway.
        if (race.settled) return;
        race.settled = true;
        race.parley.abort(new Error("answered in the editor"));
      }
    }
    this.send(this.toAgent, message);
  }

  private fromAgent(message: AnyMessage): void {
    const seen = classify(message);
    if (seen?.type === "request" && seen.method === "session/request_permission") {
      const params = permissionParams(seen.params);
      if (params) this.race(seen.id, params);
    } else if (seen?.type === "notification") {
      if (seen.method === "session/update") {
        const update = updateParams(seen.params);
        if (update) this.parley.update(update.sessionId, update.update);
      } else if (seen.method === "$/cancel_request") {
        // The agent gave up on its own request: the card goes; the editor's answer still reaches it.
        const requestId = cancelledRequestId(seen.params);
        const race = requestId === null ? undefined : this.races.get(idKey(requestId));
        race?.parley.abort(new Error("cancelled by the agent"));
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

  private race(id: string | number, params: NonNullable<ReturnType<typeof permissionParams>>): void {
    const race: Race = { settled: false, parley: new AbortController() };
    this.races.set(idKey(id), race);
    this.parley.ask(params, id, race.parley.signal).then(
      (outcome) => {
        if (race.settled) return;
        race.settled = true;
        this.send(this.toAgent, { jsonrpc: "2.0", id, result: { outcome } } as AnyMessage);
        this.send(this.toEditor, {
          jsonrpc: "2.0",
          method: "$/cancel_request",
          params: { requestId: id },
        } as AnyMessage);
      },
      (error: unknown) => {
        // Ended on purpose (the editor answered, the agent or the editor cancelled): nothing to say.
        if (race.parley.signal.aborted || error instanceof CardWithdrawn) return;
        const why = error instanceof Error ? error.message : String(error);
        this.log(`${why}; the editor still asks`);
      },
    );
  }
}

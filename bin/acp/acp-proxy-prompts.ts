// The person's messages in Parley as prompts on the editor's sessions (`parley acp` between an
// editor and its agent): once the editor has prompted a session, each message the person sends
// there is sent to the agent as `session/prompt` when no turn runs (waiting its turn otherwise),
// and shown to the editor as the user's own message. The editor stays the session's owner: its
// prompts go through untouched, and the answers to Parley's prompts are never sent to it.
import type { AnyMessage } from "@agentclientprotocol/sdk";
import type { AgentMessage } from "../../client/client";
import type { ParleySessions } from "./parley-sessions";

interface Followed {
  /** Prompt turns running now (the editor's and Parley's). */
  running: number;
  /** INVARIANT: messages read and not yet prompted; never acknowledged, so a new run reads them again. */
  waiting: AgentMessage[];
}

export class ProxyPrompts {
  private readonly sessions = new Map<string, Followed>();
  /** Parley's own `session/prompt` requests in flight: request id → ACP session. */
  private readonly own = new Map<string, string>();
  private readonly ending = new AbortController();
  private sent = 0;

  constructor(
    private readonly parley: ParleySessions,
    private readonly toAgent: (message: AnyMessage) => void,
    private readonly toEditor: (message: AnyMessage) => void,
    private readonly log: (line: string) => void,
    /** Cancels the running turn of a session, answering what it holds open. */
    private readonly interrupt: (sessionId: string) => void,
  ) {}

  /** The editor prompted `sessionId`: a turn runs, and from now on the person's messages come to it. */
  editorPrompted(sessionId: string): void {
    const followed = this.sessions.get(sessionId);
    if (followed) {
      followed.running += 1;
      return;
    }
    this.sessions.set(sessionId, { running: 1, waiting: [] });
    void this.follow(sessionId);
  }

  /** The editor's prompt on `sessionId` was answered: its turn ended. */
  editorTurnEnded(sessionId: string): void {
    const followed = this.sessions.get(sessionId);
    if (!followed) return;
    followed.running = Math.max(0, followed.running - 1);
    this.promptNext(sessionId);
  }

  /**
   * Takes the agent's answer to one of Parley's own prompts (true), which the editor never asked
   * and so never sees; false for any other response.
   */
  answered(idKey: string): boolean {
    const sessionId = this.own.get(idKey);
    if (sessionId === undefined) return false;
    this.own.delete(idKey);
    this.parley.stopped(sessionId);
    this.editorTurnEnded(sessionId);
    return true;
  }

  /** Whether `idKey` names a prompt Parley sent (the proxy's ids are strings no editor uses). */
  isOwn(idKey: string): boolean {
    return this.own.has(idKey);
  }

  /** The session of Parley's own prompt `idKey` while it runs; null for any other request. */
  sessionOf(idKey: string): string | null {
    return this.own.get(idKey) ?? null;
  }

  end(): void {
    this.ending.abort();
  }

  private async follow(sessionId: string): Promise<void> {
    try {
      for await (const message of this.parley.messages(sessionId, this.ending.signal)) {
        const followed = this.sessions.get(sessionId);
        if (!followed) return;
        // Asked to interrupt: the running turn stops (as the editor's Stop would); this one comes next.
        if (message.interrupt && followed.running > 0) this.interrupt(sessionId);
        followed.waiting.push(message);
        this.promptNext(sessionId);
      }
    } catch (error) {
      this.log(`no more messages from Parley: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private promptNext(sessionId: string): void {
    const followed = this.sessions.get(sessionId);
    if (!followed || followed.running > 0) return;
    const message = followed.waiting.shift();
    if (!message) return;
    followed.running += 1;
    const id = `parley-message-${++this.sent}`;
    this.own.set(JSON.stringify(id), sessionId);
    const prompt = [{ type: "text" as const, text: message.text }];
    // The editor shows it as the user's message, as if typed there.
    this.toEditor({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId, update: { sessionUpdate: "user_message_chunk", content: prompt[0] } },
    } as AnyMessage);
    this.parley.prompt(sessionId, prompt, message.messageId);
    this.toAgent({
      jsonrpc: "2.0",
      id,
      method: "session/prompt",
      params: { sessionId, prompt },
    } as AnyMessage);
    this.parley.delivered(sessionId, message.messageId);
  }
}

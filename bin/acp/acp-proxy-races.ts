// The agent's requests `parley acp` asks in Parley between an editor and its agent (permissions,
// elicitations): each one raced with the editor when the editor holds it too, or asked in Parley
// alone when the editor cannot show it. The agent never gets two answers. A cancelled turn ends
// the ones still open as ACP says: the client answers them itself (`cancelled`, `cancel`).
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { idKey } from "./acp-messages";
import { CardWithdrawn } from "./parley-sessions";

interface Race {
  id: string | number;
  sessionId: string;
  /** The editor was sent the request too, and answers it unless told to drop it. */
  editor: boolean;
  /** The answer the agent gets when the request ends without one (its turn cancelled). */
  cancelled: unknown;
  /** Someone answered: the agent has its response. */
  settled: boolean;
  /** Ends the Parley side: the card is withdrawn. */
  parley: AbortController;
}

/** One request to race: the Parley card's wait, and what the agent gets if it ends unanswered. */
export interface RaceAsk {
  sessionId: string;
  editor: boolean;
  cancelled: unknown;
  ask: (signal: AbortSignal) => Promise<unknown>;
}

export class ProxyRaces {
  /** INVARIANT: in-flight requests of this one connection; they end with the process. */
  private readonly races = new Map<string, Race>();

  constructor(
    private readonly toAgent: (message: AnyMessage) => void,
    private readonly toEditor: (message: AnyMessage) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Asks request `id` in Parley; the first answer (Parley's, or the editor's) goes to the agent. */
  start(id: string | number, request: RaceAsk): void {
    const race: Race = { id, ...request, settled: false, parley: new AbortController() };
    this.races.set(idKey(id), race);
    request.ask(race.parley.signal).then(
      (result) => {
        if (race.settled) return;
        this.settle(race, result);
        // The editor's copy is dropped, and its late answer with it.
        if (race.editor) this.dropInEditor(race);
      },
      (error: unknown) => {
        // Ended on purpose (the editor answered, the agent or a cancel ended it): nothing to say.
        if (race.settled || race.parley.signal.aborted || error instanceof CardWithdrawn) return;
        const why = error instanceof Error ? error.message : String(error);
        if (race.editor) {
          this.log(`${why}; the editor still asks`);
          return;
        }
        this.log(`${why}; the request ends unanswered`);
        this.settle(race, race.cancelled);
      },
    );
  }

  /**
   * The editor answered request `key`: true when the agent already has its answer and this one
   * must not reach it; otherwise the Parley card is withdrawn and the answer goes through.
   */
  editorAnswered(key: string): boolean {
    const race = this.races.get(key);
    if (!race) return false;
    this.races.delete(key);
    if (race.settled) return true;
    race.settled = true;
    race.parley.abort(new Error("answered in the editor"));
    return false;
  }

  /**
   * The agent gave up on request `id` (`$/cancel_request`): its card goes. True when the editor
   * holds the request too, so the notice goes on to it.
   */
  agentGaveUp(id: string | number): boolean {
    const race = this.races.get(idKey(id));
    if (!race) return true;
    race.parley.abort(new Error("cancelled by the agent"));
    if (race.editor) return true;
    this.settle(race, race.cancelled);
    return false;
  }

  /**
   * The turn of `sessionId` is cancelled: every card of its open requests is withdrawn. With
   * `editorAnswers` (the editor cancelled it, and answers what it holds, as ACP asks of it) only
   * the requests the editor never saw are answered here; otherwise (Parley cancelled it) all are,
   * and the editor is told to drop its copies.
   */
  cancelTurn(sessionId: string, editorAnswers: boolean): void {
    for (const race of this.races.values()) {
      if (race.sessionId !== sessionId || race.settled) continue;
      race.parley.abort(new CardWithdrawn("the turn was cancelled"));
      if (editorAnswers && race.editor) continue;
      this.settle(race, race.cancelled);
      if (race.editor) this.dropInEditor(race);
    }
  }

  /** Parley's answer goes to the agent; a request the editor never saw is done with. */
  private settle(race: Race, result: unknown): void {
    race.settled = true;
    if (!race.editor) this.races.delete(idKey(race.id));
    this.toAgent({ jsonrpc: "2.0", id: race.id, result } as AnyMessage);
  }

  private dropInEditor(race: Race): void {
    this.toEditor({
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: race.id },
    } as AnyMessage);
  }
}

// The Parley side of `parley acp`: one keyed external session per ACP session (found again by the
// ACP sessionId, titled from its first prompt), progress posted in order, and the cards of
// permissions and elicitations opened, waited on and withdrawn. A card's wait survives Parley
// restarts and network drops.

import process from "node:process";
import type {
  ContentBlock,
  CreateElicitationResponse,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import { agentLine } from "../../client/agent-line";
import type { AgentMessage, ExternalAgent, ExternalInteraction, ProgressEvent } from "../../client/client";
import { cardKey, externalKey } from "../../src/bridge/card-key";
import { waitForCard } from "../../src/bridge/card-wait";
import { AgentCwd } from "../../src/protocol/external/external";
import type { ElicitRequestParams } from "../../src/protocol/forms/elicitation";
import { type BridgeSettings, connectAgent } from "../bridge-options";
import { answerForCard, type ElicitationMode } from "./acp-elicitation";
import { cardForPermission, outcomeForCard } from "./acp-permissions";
import { AcpProgress } from "./acp-progress";

/** What the session's devices read as the bridge that handed the person's messages over. */
export const ACP_BRIDGE = "parley acp";

/** Once a card is open the person may take their time, and Parley may restart meanwhile. */
const WAIT_UNREACHABLE_MS = 300_000;
const MAX_TITLE = 200;

/** Why a card's wait ended when its ACP session was cancelled or the run ended. */
export class CardWithdrawn extends Error {
  override readonly name = "CardWithdrawn";
}

interface Session {
  agent: Promise<ExternalAgent> | null;
  progress: AcpProgress;
  posting: Promise<void>;
  title?: string;
  /** The folder the editor opened the session in (ACP `session/new`'s cwd): the agent's working folder. */
  cwd?: string;
  /** INVARIANT: cards waiting for a person; losing them with the process is harmless, as the
   * process exiting withdraws them (or, killed, leaves them to their deadline). */
  open: Set<AbortController>;
}

export class ParleySessions {
  private readonly sessions = new Map<string, Session>();
  private readonly withdrawals = new Set<Promise<void>>();
  private warned = false;
  agentName: string;

  constructor(
    private readonly settings: BridgeSettings,
    /** The name given with --name, which wins over the agent's own. */
    private readonly nameOverride: string | undefined,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`parley: ${line}\n`),
  ) {
    this.agentName = nameOverride ?? "ACP agent";
  }

  /** The agent's name from its `initialize` answer. */
  named(info: { name?: string; title?: string | null } | null | undefined): void {
    const name = info?.title?.trim() || info?.name?.trim();
    if (!this.nameOverride && name) this.agentName = name.slice(0, 64);
  }

  /**
   * The working folder of ACP session `sessionId`, as the editor gave it to the agent (`session/new`,
   * `session/load`): relative path rules resolve against it. A folder Parley would refuse is dropped.
   */
  located(sessionId: string, cwd: string): void {
    const parsed = AgentCwd.safeParse(cwd);
    if (parsed.success) this.session(sessionId).cwd = parsed.data;
    else delete this.session(sessionId).cwd;
  }

  private session(sessionId: string): Session {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = { agent: null, progress: new AcpProgress(), posting: Promise.resolve(), open: new Set() };
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  private agent(sessionId: string): Promise<ExternalAgent> {
    const session = this.session(sessionId);
    if (!session.agent) {
      const title = this.settings.title ?? session.title;
      const connecting = connectAgent(
        { ...this.settings, name: this.agentName, ...(title ? { title } : {}) },
        externalKey(sessionId),
      );
      session.agent = connecting;
      connecting.then(
        (agent) =>
          this.log(
            `ACP session ${sessionId} asks in Parley: session ${agent.sessionId} (open it from your Parley inbox)`,
          ),
        () => {},
      );
      // A failed connect is tried again by the next call rather than remembered.
      connecting.catch(() => {
        if (session.agent === connecting) session.agent = null;
      });
    }
    return session.agent;
  }

  private post(sessionId: string, events: ProgressEvent[]): void {
    if (events.length === 0) return;
    const session = this.session(sessionId);
    session.posting = session.posting
      .then(async () => (await this.agent(sessionId)).postProgress(events))
      .catch((error: unknown) => this.warn(error));
  }

  private warn(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    const why = error instanceof Error ? error.message : String(error);
    this.log(`progress not posted to Parley: ${why}`);
  }

  /** `messageId`: the prompt is a message the person sent in Parley (shown there already). */
  prompt(sessionId: string, blocks: ContentBlock[], messageId?: string): void {
    const session = this.session(sessionId);
    if (!session.title) {
      const text = blocks
        .map((block) => (block.type === "text" ? block.text : ""))
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
      if (text) session.title = text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE - 1)}…` : text;
    }
    this.post(sessionId, session.progress.prompt(blocks, messageId));
  }

  /**
   * The person's messages to ACP session `sessionId`, sent in Parley, in order: ends when the
   * person stops the session or `signal` aborts; throws once Parley is out of reach for good.
   */
  async *messages(sessionId: string, signal: AbortSignal): AsyncGenerator<AgentMessage, void> {
    const agent = await this.agent(sessionId);
    yield* agent.messages({ signal, unreachableMs: this.settings.unreachableMs });
  }

  /** Every device learns the agent has message `messageId` (a failure is logged, not thrown). */
  delivered(sessionId: string, messageId: string): void {
    const session = this.session(sessionId);
    session.posting = session.posting
      .then(async () => (await this.agent(sessionId)).delivered(messageId, ACP_BRIDGE))
      .catch((error: unknown) => this.log(`a delivery was not recorded in Parley: ${String(error)}`));
  }

  update(sessionId: string, update: SessionUpdate): void {
    this.post(sessionId, this.session(sessionId).progress.update(update));
  }

  stopped(sessionId: string): void {
    this.post(sessionId, this.session(sessionId).progress.stopped());
  }

  /**
   * Asks the person in Parley; resolves with the ACP outcome once the card resolves. Rejects when
   * Parley cannot be reached or `signal` aborts (the card is then withdrawn on every device).
   */
  async ask(
    params: RequestPermissionRequest,
    requestId: string | number,
    signal: AbortSignal,
  ): Promise<RequestPermissionOutcome> {
    const card = {
      ...cardForPermission(params),
      key: cardKey(`${params.toolCall.toolCallId}.${requestId}`),
    };
    const state = await this.waitOn(params.sessionId, card, signal, true);
    return outcomeForCard(params.options, state);
  }

  /**
   * Shows an elicitation (a form, or a page to visit) in ACP session `sessionId`; resolves with
   * the ACP answer once the card resolves. Rejects as `ask` does.
   */
  async elicit(
    sessionId: string,
    card: { kind: ElicitationMode; request: ElicitRequestParams },
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    // ACP gives a form no id of its own that outlives the request: a key of this request's own.
    const opened = { kind: card.kind, request: card.request, key: cardKey(undefined) };
    const state = await this.waitOn(sessionId, opened, signal, false);
    return answerForCard(card.kind, state);
  }

  /** Opens `card` in the session's Parley session and waits for it; `located`: it names the folder. */
  private async waitOn(
    sessionId: string,
    card: { kind: string; request: unknown; key: string },
    signal: AbortSignal,
    located: boolean,
  ): Promise<ExternalInteraction> {
    const session = this.session(sessionId);
    const controller = new AbortController();
    const stop = () => controller.abort(signal.reason);
    if (signal.aborted) stop();
    signal.addEventListener("abort", stop, { once: true });
    session.open.add(controller);
    try {
      const agent = await this.agent(sessionId);
      const line = agentLine(agent, {
        unreachableMs: this.settings.unreachableMs,
        waitUnreachableMs: Math.max(this.settings.unreachableMs, WAIT_UNREACHABLE_MS),
      });
      const keyed = { ...card, ...(located && session.cwd ? { cwd: session.cwd } : {}) };
      return await waitForCard(line, keyed, {
        signal: controller.signal,
        track: (withdrawal) => this.track(withdrawal),
      });
    } finally {
      signal.removeEventListener("abort", stop);
      session.open.delete(controller);
    }
  }

  private track(withdrawal: Promise<void>): void {
    const tracked = withdrawal.catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      this.log(`a card could not be withdrawn: ${why}`);
    });
    this.withdrawals.add(tracked);
    void tracked.finally(() => this.withdrawals.delete(tracked));
  }

  /** Withdraws the open cards of one session (`session/cancel`), or of all of them. */
  withdrawAll(sessionId?: string): void {
    for (const [id, session] of this.sessions) {
      if (sessionId !== undefined && id !== sessionId) continue;
      for (const controller of session.open) controller.abort(new CardWithdrawn("the card was withdrawn"));
    }
  }

  /** Withdraws every open card and waits (up to `ms`) for the withdrawals and progress posts. */
  async close(ms = 5_000): Promise<void> {
    this.withdrawAll();
    const pending = [...this.withdrawals, ...[...this.sessions.values()].map((session) => session.posting)];
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(pending),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }
}

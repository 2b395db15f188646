// `parley acp --prompt "…" -- <agent>`: no editor, so `parley acp` is the ACP client. It opens one
// session in the working directory, sends the prompt, then each message the person sends in
// Parley as the next prompt (queued while a turn runs; one sent with interrupt cancels the turn),
// until the person stops the session. It asks every permission and elicitation in Parley only
// (Parley out of reach: denied or dismissed, with a message), prints the agent's text, and returns
// the last turn's stop reason. It advertises elicitation (form and URL) but no file-system or
// terminal capability: the agent uses its own tools.
import {
  client,
  PROTOCOL_VERSION,
  RequestError,
  type StopReason,
  type Stream,
} from "@agentclientprotocol/sdk";
import type { AgentMessage } from "../../client/client";
import { cardForElicitation, ELICITATION_CAPABILITIES, elicitationSessionId } from "./acp-elicitation";
import { rejection } from "./acp-permissions";
import { CardWithdrawn, type ParleySessions } from "./parley-sessions";

export interface HeadlessRun {
  prompt: string;
  cwd: string;
  out: (text: string) => void;
  log: (line: string) => void;
  /** Aborts the turn (`session/cancel`) and ends the run, e.g. on Ctrl-C. */
  interrupt: AbortSignal;
}

export async function runHeadless(
  stream: Stream,
  parley: ParleySessions,
  run: HeadlessRun,
): Promise<StopReason> {
  // The run's one ACP session, once open: where a request-scoped elicitation is asked.
  let only: string | null = null;
  const app = client({ name: "parley acp" })
    .onRequest("session/request_permission", async (ctx) => {
      try {
        return { outcome: await parley.ask(ctx.params, ctx.requestId ?? "headless", ctx.signal) };
      } catch (error) {
        // The agent gave up on its own request, or this client cancelled the turn (ACP's client then
        // answers its open requests `cancelled`): no answer was given and the person needs no message.
        if (ctx.signal.aborted || error instanceof CardWithdrawn)
          return { outcome: { outcome: "cancelled" } };
        const why = error instanceof Error ? error.message : String(error);
        run.log(`${why}; the request is denied`);
        return { outcome: rejection(ctx.params.options) };
      }
    })
    .onRequest("elicitation/create", async (ctx) => {
      const card = cardForElicitation(ctx.params);
      if (!card.ok) throw RequestError.invalidParams(undefined, card.message);
      const sessionId = elicitationSessionId(ctx.params) ?? only;
      if (sessionId === null)
        throw RequestError.invalidParams(undefined, "Parley asks only within a session");
      try {
        return await parley.elicit(sessionId, card, ctx.signal);
      } catch (error) {
        // Cancelled (by the agent or with the turn), or no person could be asked: nobody answered.
        if (!ctx.signal.aborted && !(error instanceof CardWithdrawn))
          run.log(`${error instanceof Error ? error.message : String(error)}; the elicitation is dismissed`);
        return { action: "cancel" };
      }
    });
  return app.connectWith(stream, async (agent) => {
    const init = await agent.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        elicitation: ELICITATION_CAPABILITIES,
      },
      clientInfo: { name: "parley", version: "1" },
    });
    parley.named(init.agentInfo);
    return agent.buildSession(run.cwd).withSession(async (session) => {
      const sessionId = session.sessionId;
      only = sessionId;
      parley.located(sessionId, run.cwd);
      const cancel = () => {
        void agent.notify("session/cancel", { sessionId }).catch(() => {});
        parley.withdrawAll(sessionId);
      };
      // Made once the first prompt has titled the session in Parley.
      const made: { inbox: MessageInbox | null } = { inbox: null };
      const stop = () => {
        cancel();
        made.inbox?.end();
      };
      run.interrupt.addEventListener("abort", stop, { once: true });

      /** One prompt turn: the updates it streams, until its stop. */
      const turn = async (text: string, messageId?: string): Promise<StopReason> => {
        parley.prompt(sessionId, [{ type: "text", text }], messageId);
        made.inbox ??= new MessageInbox(parley, sessionId, run.log, cancel);
        const running = made.inbox;
        if (run.interrupt.aborted) running.end();
        running.running = true;
        // A prompt that fails ends the run; one that answers ends the turn through its `stop` update.
        const failed = session.prompt(text).then(() => new Promise<never>(() => {}));
        if (messageId) parley.delivered(sessionId, messageId);
        try {
          for (;;) {
            const next = await Promise.race([session.nextUpdate(), failed]);
            if (next.kind === "stop") {
              parley.stopped(sessionId);
              return next.stopReason;
            }
            const update = next.update;
            if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text")
              run.out(update.content.text);
            parley.update(sessionId, update);
          }
        } finally {
          running.running = false;
        }
      };

      try {
        let last = await turn(run.prompt);
        const messages = made.inbox;
        for (let message = await messages?.next(); message; message = await messages?.next()) {
          run.out("\n");
          last = await turn(message.text, message.messageId);
        }
        return last;
      } finally {
        run.interrupt.removeEventListener("abort", stop);
        made.inbox?.end();
      }
    });
  });
}

/**
 * The person's messages for one ACP session, read from Parley as they are sent and held until the
 * running turn ends; one asking to interrupt cancels that turn at once.
 */
class MessageInbox {
  // INVARIANT: messages read and not yet prompted; lost with the process, they were never
  // acknowledged, so a new run reads them again.
  private readonly waiting: AgentMessage[] = [];
  private readonly ending = new AbortController();
  private ended = false;
  private wake: (() => void) | null = null;
  /** True while a prompt turn runs. */
  running = false;

  constructor(parley: ParleySessions, sessionId: string, log: (line: string) => void, cancel: () => void) {
    void (async () => {
      try {
        for await (const message of parley.messages(sessionId, this.ending.signal)) {
          if (message.interrupt && this.running) cancel();
          this.waiting.push(message);
          this.wake?.();
        }
      } catch (error) {
        log(`no more messages from Parley: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.ended = true;
        this.wake?.();
      }
    })();
  }

  /** The next message, waiting for one; null once the person stopped the session or the run ends. */
  async next(): Promise<AgentMessage | null> {
    for (;;) {
      const message = this.waiting.shift();
      if (message) return message;
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
  }

  end(): void {
    this.ending.abort();
  }
}

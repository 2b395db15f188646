// `parley acp --prompt "…" -- <agent>`: no editor, so `parley acp` is the ACP client. It opens one
// session in the working directory, sends the prompt, asks every permission in Parley only
// (Parley out of reach: denied, with a message), prints the agent's text, and returns the turn's
// stop reason. It advertises no file-system or terminal capability: the agent uses its own tools.
import { client, PROTOCOL_VERSION, type StopReason, type Stream } from "@agentclientprotocol/sdk";
import { rejection } from "./acp-permissions";
import type { ParleySessions } from "./parley-sessions";

export interface HeadlessRun {
  prompt: string;
  cwd: string;
  out: (text: string) => void;
  log: (line: string) => void;
  /** Aborts the turn (`session/cancel`), e.g. on Ctrl-C. */
  interrupt: AbortSignal;
}

export async function runHeadless(
  stream: Stream,
  parley: ParleySessions,
  run: HeadlessRun,
): Promise<StopReason> {
  const app = client({ name: "parley acp" }).onRequest("session/request_permission", async (ctx) => {
    try {
      return { outcome: await parley.ask(ctx.params, ctx.requestId ?? "headless", ctx.signal) };
    } catch (error) {
      // The agent gave up on its own request: it needs no answer and the person no message.
      if (ctx.signal.aborted) return { outcome: { outcome: "cancelled" } };
      const why = error instanceof Error ? error.message : String(error);
      run.log(`${why}; the request is denied`);
      return { outcome: rejection(ctx.params.options) };
    }
  });
  return app.connectWith(stream, async (agent) => {
    const init = await agent.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "parley", version: "1" },
    });
    parley.named(init.agentInfo);
    return agent.buildSession(run.cwd).withSession(async (session) => {
      const sessionId = session.sessionId;
      parley.located(sessionId, run.cwd);
      const cancel = () => void agent.notify("session/cancel", { sessionId }).catch(() => {});
      run.interrupt.addEventListener("abort", cancel, { once: true });
      parley.prompt(sessionId, [{ type: "text", text: run.prompt }]);
      // A prompt that fails ends the run; one that answers ends it through its `stop` update.
      const failed = session.prompt(run.prompt).then(() => new Promise<never>(() => {}));
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
        run.interrupt.removeEventListener("abort", cancel);
      }
    });
  });
}

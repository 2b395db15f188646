// Executes client commands (from a socket or an HTTP route) against the session:
// validate → persist → broadcast, then wake the loop. Returns a result or a precise error.
import type { AgentDeps } from "../agent/agent-deps";
import type { AgentLoop } from "../agent/agent-loop";
import { decideBatch } from "../agent/batch-decision";
import { topMark } from "../agent/frame-mark";
import { retryNow } from "../agent/model-retry";
import { answerInteraction, chatAnswersACard, replyInChat } from "../agent/resolve-interaction";
import type { Outcome } from "../objects/outcome";
import { answererName, type Decider } from "../protocol/cards/decider";
import { MAX_QUEUED_MESSAGES } from "../protocol/limits";
import type { SessionCommand } from "../protocol/wire/commands";
import type { SentMessageLog } from "./stores/sent-message-log";

/** What a command answers; its result is whatever that command returns. */
export type CommandOutcome = Outcome<unknown>;

export interface CommandContext {
  deps: AgentDeps;
  loop: AgentLoop;
  sentMessages: SentMessageLog;
  /**
   * Who sends the command, as the server knew them where it entered (a person, a link, a chat
   * account, from a kind of device): recorded on answers, messages, cancels and mode changes; the
   * device id stays a display name only.
   */
  decider?: Decider | null;
}

export function executeCommand(
  { deps, loop, sentMessages, decider = null }: CommandContext,
  command: SessionCommand,
  deviceId: string | null,
): CommandOutcome {
  const answeredBy = answererName(decider);
  switch (command.type) {
    case "send_message": {
      // A resend after a lost ack carries the same requestId and text: answer it, do not post it again.
      const requestKey = command.requestId ? `${deviceId ?? ""}|${command.requestId}` : null;
      const earlier = requestKey ? sentMessages.find(requestKey, command.text) : null;
      if (earlier) return { ok: true, result: { ...earlier, duplicate: true } };
      // Asked to interrupt: the running turn stops first, as the Stop button would stop it.
      if (command.interrupt) loop.cancel(deviceId, "cancelled", decider);
      // An open question card takes the message as its answer (replied in chat) rather than queueing it.
      if (chatAnswersACard(deps)) {
        const messageId = deps.newId("msg");
        const answered = deps.atomically(() => {
          deps.events.append("user_message", {
            messageId,
            text: command.text,
            queued: false,
            deviceId,
            ...(answeredBy ? { by: answeredBy } : {}),
            ...topMark(deps),
          });
          if (requestKey) sentMessages.record(requestKey, command.text, { messageId, queued: false });
          return replyInChat(deps, command.text, deviceId, decider);
        });
        wake(loop);
        return { ok: true, result: { messageId, queued: false, answered } };
      }
      // Every queued message becomes a model turn: a runaway client must not queue unbounded work.
      if (deps.queue.size() >= MAX_QUEUED_MESSAGES) {
        return {
          ok: false,
          error: {
            code: "queue_full",
            message: `${MAX_QUEUED_MESSAGES} messages are already waiting; try again after a turn ends`,
          },
        };
      }
      const messageId = deps.newId("msg");
      const queued = deps.turn.current() !== null || deps.queue.size() > 0;
      deps.queue.push({ id: messageId, text: command.text });
      if (requestKey) sentMessages.record(requestKey, command.text, { messageId, queued });
      // A queued message reaches whichever agent is on top when its turn starts (turn_started says).
      const to = queued ? {} : topMark(deps);
      const by = answeredBy ? { by: answeredBy } : {};
      deps.events.append("user_message", { messageId, text: command.text, queued, deviceId, ...by, ...to });
      wake(loop);
      return { ok: true, result: { messageId, queued } };
    }
    case "decide_batch": {
      const { type: _type, requestId: _requestId, ...batch } = command;
      const decided = decideBatch(deps, batch, deviceId, decider);
      if (!decided.ok) return decided;
      if (decided.outcome.stopped) loop.cancel(deviceId, "rejected", decider);
      wake(loop);
      return { ok: true, result: decided.outcome };
    }
    case "cancel": {
      if (!loop.cancel(deviceId, "cancelled", decider)) {
        return { ok: false, error: { code: "nothing_to_cancel", message: "No turn is running" } };
      }
      wake(loop); // queued messages run next
      return { ok: true, result: null };
    }
    case "end_agent": {
      const top = deps.frames.top();
      if (!top) {
        return {
          ok: false,
          error: {
            code: "no_agent",
            message: "No delegated agent is running; the main agent holds the conversation",
          },
        };
      }
      if (command.frameId !== undefined && command.frameId !== top.frameId) {
        return {
          ok: false,
          error: {
            code: "not_top_agent",
            message: `Agent frame "${command.frameId}" is not the agent on top of the stack (that is ${top.agent}, "${top.frameId}")`,
          },
        };
      }
      const ended = loop.endAgent(deviceId, decider);
      wake(loop);
      return { ok: true, result: { frameId: ended?.frameId ?? top.frameId, agent: top.agent } };
    }
    case "retry_now": {
      if (!retryNow(deps)) {
        return {
          ok: false,
          error: { code: "nothing_to_retry", message: "No model call is waiting to be retried" },
        };
      }
      wake(loop);
      return { ok: true, result: null };
    }
    case "set_permission_mode":
      deps.turn.setMode(command.mode, answeredBy);
      return { ok: true, result: { mode: command.mode } };
    default: {
      // Every other command answers an interaction; which kind it addresses lives beside the kinds.
      const answer = deps.kinds.answerOf(command);
      if (!answer) {
        return {
          ok: false,
          error: { code: "unknown_command", message: `Unknown command "${command.type}"` },
        };
      }
      const result = answerInteraction(deps, { ...answer, kind: answer.kind ?? null, deviceId, decider });
      // Reject and stop: the denial is recorded, then the turn ends instead of calling the model.
      if (result.ok && result.stopTurn) loop.cancel(deviceId, "rejected", decider);
      // A late answer may just have timed its interaction out; either way the loop has work to do.
      if (result.ok || result.error.code === "already_resolved") wake(loop);
      // A card that needs more distinct approvals answers with the count so far; it stays open.
      return result.ok ? { ok: true, result: result.counted ?? result.resolution } : result;
    }
  }
}

function wake(loop: AgentLoop): void {
  loop.advance().catch((error: unknown) => console.error("SessionObject advance failed", error));
}

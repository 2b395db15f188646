// Executes client commands (from a socket or an HTTP route) against the session:
// validate → persist → broadcast, then wake the loop. Returns a result or a precise error.
import type { AgentDeps } from "../agent/agent-deps";
import type { AgentLoop } from "../agent/agent-loop";
import { answerInteraction } from "../agent/resolve-interaction";
import type { ClientCommand } from "../protocol/commands";
import type { ErrorBody } from "../protocol/errors";

export type CommandOutcome = { ok: true; result?: unknown } | { ok: false; error: ErrorBody };

type SessionCommand = Exclude<ClientCommand, { type: "resume" }>;

export function executeCommand(
  deps: AgentDeps,
  loop: AgentLoop,
  command: SessionCommand,
  deviceId: string | null,
): CommandOutcome {
  switch (command.type) {
    case "send_message": {
      const messageId = deps.newId("msg");
      const queued = deps.turn.current() !== null || deps.inbox.size() > 0;
      deps.inbox.push({ id: messageId, text: command.text });
      deps.events.append("user_message", { messageId, text: command.text, queued, deviceId });
      wake(loop);
      return { ok: true, result: { messageId, queued } };
    }
    case "submit_answers":
      return resolved(
        deps,
        loop,
        answerInteraction(deps, command.toolCallId, "question", { answers: command.answers }, deviceId),
      );
    case "approve":
      return resolved(
        deps,
        loop,
        answerInteraction(
          deps,
          command.toolCallId,
          "approval",
          { decision: "approve", remember: command.remember ?? false },
          deviceId,
        ),
      );
    case "deny":
      return resolved(
        deps,
        loop,
        answerInteraction(
          deps,
          command.toolCallId,
          "approval",
          { decision: "deny", ...(command.reason !== undefined ? { reason: command.reason } : {}) },
          deviceId,
        ),
      );
    case "respond":
      return resolved(
        deps,
        loop,
        answerInteraction(deps, command.toolCallId, null, command.response, deviceId),
      );
    case "cancel": {
      if (!loop.cancel(deviceId)) {
        return { ok: false, error: { code: "nothing_to_cancel", message: "No turn is running" } };
      }
      wake(loop); // queued messages run next
      return { ok: true };
    }
    case "set_permission_mode":
      deps.turn.setMode(command.mode);
      return { ok: true, result: { mode: command.mode } };
  }
}

function resolved(
  deps: AgentDeps,
  loop: AgentLoop,
  result: ReturnType<typeof answerInteraction>,
): CommandOutcome {
  if (!result.ok) {
    // A late answer may just have timed its interaction out; the loop then has work to do.
    if (result.error.code === "already_resolved") wake(loop);
    return result;
  }
  // If this instance dies before the loop takes the answer, the watchdog alarm picks it up.
  if (deps.interactions.pending().length === 0)
    deps.deadlines.setWatchdog(deps.clock.now() + deps.settings.watchdogMs);
  wake(loop);
  return { ok: true, result: result.resolution };
}

function wake(loop: AgentLoop): void {
  loop.advance().catch((error: unknown) => console.error("SessionObject advance failed", error));
}

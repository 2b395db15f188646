// An external agent's progress (its prompt, text, tool calls, status) as the same events the loop
// writes, marked with the agent's name, so every device, the terminal and SSE show it unchanged.
import type { ProgressEvent } from "../protocol/external/external";
import type { AgentDeps } from "./agent-deps";
import { externalMark } from "./external-id";

/** Where the agent's current run stands: its turn id and the next content block's index. */
export interface ProgressRun {
  turnId: string;
  nextIndex: number;
}

/** The agent's current run, kept with the session so a new instance continues it. */
export interface ProgressRunStore {
  get(): ProgressRun | null;
  set(run: ProgressRun | null): void;
}

/** Stores `events` in order, in one transaction: all of them are shown, or none. */
export function postProgress(
  deps: Pick<AgentDeps, "atomically" | "events" | "newId" | "turn">,
  runs: ProgressRunStore,
  agent: string,
  events: readonly ProgressEvent[],
): { stored: number } {
  const mark = externalMark(agent);
  deps.atomically(() => {
    let run = runs.get();
    const current = (): ProgressRun => {
      run ??= { turnId: deps.newId("ext_turn"), nextIndex: 0 };
      return run;
    };
    for (const event of events) {
      switch (event.type) {
        case "prompt": {
          run = { turnId: deps.newId("ext_turn"), nextIndex: 0 };
          // A message the person sent in Parley has its user_message already: only its turn starts.
          if (event.messageId) {
            deps.events.append("turn_started", { turnId: run.turnId, messageId: event.messageId, ...mark });
            break;
          }
          const messageId = deps.newId("msg");
          deps.events.append("user_message", {
            messageId,
            text: event.text,
            queued: false,
            deviceId: null,
            ...mark,
          });
          deps.events.append("turn_started", { turnId: run.turnId, messageId, ...mark });
          break;
        }
        case "text": {
          const { turnId } = current();
          const index = current().nextIndex++;
          deps.events.append("text_delta", { turnId, index, text: event.text, ...mark });
          break;
        }
        case "tool_started": {
          const { turnId } = current();
          const index = current().nextIndex++;
          const { toolUseId: toolCallId, name, input } = event;
          deps.events.append("tool_call_start", { turnId, toolCallId, name, index, ...mark });
          deps.events.append("tool_call_end", { toolCallId, name, input, ...mark });
          break;
        }
        case "tool_finished":
          deps.events.append("tool_result", {
            toolCallId: event.toolUseId,
            name: event.name,
            content: event.result,
            isError: event.isError,
            truncated: false,
            ...mark,
          });
          break;
        case "status":
          if (event.state === "done" && run) {
            deps.events.append("done", { turnId: run.turnId, stopReason: "end_turn", usage: null });
            run = null;
          }
          deps.turn.setStatus(event.state === "running" ? "running" : "idle");
          break;
      }
    }
    runs.set(run);
  });
  return { stored: events.length };
}

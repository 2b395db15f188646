// The transcript's markers where a delegated agent takes over the conversation or hands it back.
import type { SessionEvent } from "../../src/protocol/index";
import type { NoticeItem } from "./session-view";

type AgentEvent = Extract<SessionEvent, { type: "agent_started" | "agent_completed" }>;

const ENDINGS = {
  completed: "completed and handed its result back",
  failed: "stopped with an error",
  cancelled: "was cancelled",
  ended: "was ended by you",
} as const;

export function agentNotice(event: AgentEvent): NoticeItem {
  const id = `notice:${event.seq}`;
  if (event.type === "agent_started") {
    const { agent, task } = event.data;
    return { kind: "notice", id, level: "info", text: `${agent} took over the conversation — ${task}` };
  }
  const { agent, outcome, result } = event.data;
  const level = outcome === "failed" ? "error" : "info";
  return { kind: "notice", id, level, text: `${agent} ${ENDINGS[outcome]}: ${result}` };
}

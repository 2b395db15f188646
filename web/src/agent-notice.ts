// The words a session page shows in place of the demo-model notice when an agent that runs elsewhere
// opened the session: which agent it is and what it said it works on, so no one mistakes it for Parley's own.
import type { SessionView } from "./session-view";

/** "Claude Code · ~/src/app — runs outside Parley …"; null for Parley's own agent. */
export function agentNoticeText(agent: SessionView["agent"]): string | null {
  if (agent === null) return null;
  const title = agent.title?.trim();
  const who = title ? `${agent.name} · ${title}` : agent.name;
  return `${who} — an agent that runs outside Parley, on its own machine. Replies here come from it, not from a Parley model.`;
}

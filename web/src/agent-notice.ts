// The words a session page shows in place of the demo-model notice when an agent that runs elsewhere
// opened the session: which agent it is, what it said it works on and, when known, the folder and
// machine it runs in, so no one mistakes it for Parley's own or for another run of the same agent.
import { headAndTail } from "../../src/protocol/text/head-and-tail";
import { inert } from "../../src/protocol/text/inert-text";
import type { SessionView } from "./session-view";

/** Longest folder the notice shows: both ends are kept, where a path says the most. */
const MAX_FOLDER_CHARS = 120;
const MAX_MACHINE_CHARS = 80;

/** "Claude Code · Fix the build — … in /home/dev/app on machine laptop …"; null for Parley's own agent. */
export function agentNoticeText(agent: SessionView["agent"]): string | null {
  if (agent === null) return null;
  const title = agent.title?.trim();
  const who = title ? `${agent.name} · ${title}` : agent.name;
  // The folder and machine are the agent's and its daemon's words: shown inert, never as markup.
  const folder = agent.folder ? ` in ${headAndTail(inert(agent.folder), MAX_FOLDER_CHARS)}` : "";
  const machine = agent.machine
    ? ` on machine ${headAndTail(inert(agent.machine), MAX_MACHINE_CHARS)}`
    : " on its own machine";
  return `${who} — an agent that runs outside Parley,${folder}${machine}. Replies here come from it, not from a Parley model.`;
}

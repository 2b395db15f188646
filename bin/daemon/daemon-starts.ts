// Whether this machine may run what it is asked to: the daemon's own decision, made again for every
// start whatever Parley already checked. The person only asks; the config is the authority.
import { resolve } from "node:path";
import { MachineStart } from "../../src/protocol/machines/machines";
import type { DaemonConfig } from "./daemon-config";

/** What to run for an allowed start: the bridge command line, and where. */
export interface StartPlan {
  sessionId: string;
  agent: string;
  protocol: "acp" | "claude-code";
  /** The agent's own command from the config, unchanged. */
  command: string[];
  folder: string;
  worktree: boolean;
  text: string;
  agentLink: string;
}

export type StartDecision =
  | { ok: true; plan: StartPlan }
  | { ok: false; sessionId: string | null; reason: string };

/** Checks a start frame against the config: its shape, the agent, its protocol and the folder. */
export function decideStart(config: DaemonConfig, frame: unknown): StartDecision {
  const parsed = MachineStart.safeParse(frame);
  const sessionId =
    typeof frame === "object" &&
    frame !== null &&
    typeof (frame as { sessionId?: unknown }).sessionId === "string"
      ? (frame as { sessionId: string }).sessionId
      : null;
  if (!parsed.success)
    return {
      ok: false,
      sessionId,
      reason: "the start request is malformed or has arguments this daemon does not take",
    };
  const start = parsed.data;
  const agent = Object.hasOwn(config.agents, start.agent) ? config.agents[start.agent] : undefined;
  if (!agent)
    return { ok: false, sessionId, reason: `this machine's config offers no agent "${start.agent}"` };
  if (agent.protocol !== start.protocol)
    return {
      ok: false,
      sessionId,
      reason: `the agent "${start.agent}" speaks ${agent.protocol}, not ${start.protocol}`,
    };
  const folder = resolve(start.folder);
  if (!config.folders.includes(folder))
    return {
      ok: false,
      sessionId,
      reason: `this machine's config does not offer the folder ${start.folder}`,
    };
  return {
    ok: true,
    plan: {
      sessionId: start.sessionId,
      agent: start.agent,
      protocol: agent.protocol,
      command: agent.command,
      folder,
      worktree: start.worktree === true,
      text: start.text,
      agentLink: start.agentLink,
    },
  };
}

// `parley/agent-sdk`: the Agent SDK bridge, a `canUseTool` that asks the person through Parley, and
// `parleyPrompts` (client/parley-prompts.ts), the person's messages as the query's streaming input.
// Each permission request becomes a card in one external session (found again by `key`); an
// aborted signal withdraws the card on every device; the SDK's "always allow" suggestions are
// offered on the card as a Parley grant; an edited call returns as `updatedInput`.
import type { CanUseTool, PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { askClaude } from "../src/bridge/claude-ask";
import { AgentCwd } from "../src/protocol/external/external";
import { agentLine } from "./agent-line";
import { refuseAnsweringCredential } from "./credential-kind";
import { ExternalAgent } from "./external-agent";

export { cardFor } from "../src/bridge/claude-card";
export { decisionFor, type PermissionDecision } from "../src/bridge/claude-decision";
export { AnsweringCredentialError } from "./credential-kind";
export { AGENT_SDK_BRIDGE, type ParleyPromptsOptions, parleyPrompts } from "./parley-prompts";

export interface ParleyCanUseToolOptions {
  /** The Parley origin (with `agentKey`, or alone on a local Parley). */
  server?: string;
  /** The person's agent key (`pak_…`, minted in the inbox): the only credential this bridge takes. */
  agentKey?: string;
  /**
   * Accepted only when it holds an agent key: the gateway token, an owner token, an answer link or
   * an inbox link can answer cards, so the bridge throws AnsweringCredentialError at once.
   */
  token?: string;
  /** An agent link for an existing session, instead of `server` and `agentKey`. */
  link?: string;
  title?: string;
  /** Shown on every card (default "Agent SDK"). */
  name?: string;
  /** Finds the same session again across restarts of the host (default: one session per call of this function). */
  key?: string;
  /** How long Parley may be out of reach before a request is denied (default 5 minutes). */
  unreachableMs?: number;
  /**
   * The agent's working folder, as given to `query({ options: { cwd } })` (an absolute path):
   * relative path rules resolve against it. The SDK does not pass it to canUseTool, so the host does.
   */
  cwd?: string;
  /** Called once with the person's link when the session is first opened. */
  onSession?: (session: { sessionId: string; link: string | null }) => void;
}

function checkedCwd(cwd: string): string {
  const parsed = AgentCwd.safeParse(cwd);
  if (!parsed.success) throw new TypeError(`cwd: ${parsed.error.issues[0]?.message ?? "not a folder"}`);
  return parsed.data;
}

/** A `canUseTool` callback that waits for a person's decision in Parley. */
export function parleyCanUseTool(options: ParleyCanUseToolOptions): CanUseTool {
  // Before anything runs: the agent's process must never hold a credential that answers.
  refuseAnsweringCredential(options);
  const cwd = options.cwd === undefined ? undefined : checkedCwd(options.cwd);
  const unreachableMs = options.unreachableMs ?? 300_000;
  const key = options.key ?? `sdk-${crypto.randomUUID()}`;
  let agent: Promise<ExternalAgent> | null = null;
  const connect = () => {
    agent ??= ExternalAgent.connect(
      {
        name: options.name ?? "Agent SDK",
        key,
        ...(options.server ? { server: options.server } : {}),
        ...(options.agentKey ? { agentKey: options.agentKey } : {}),
        ...(options.token ? { token: options.token } : {}),
        ...(options.link ? { link: options.link } : {}),
        ...(options.title ? { title: options.title } : {}),
        ...(cwd ? { cwd } : {}),
      },
      Date.now() + unreachableMs,
    ).then(
      (connected) => {
        options.onSession?.({ sessionId: connected.sessionId, link: connected.personLink });
        return connected;
      },
      (error: unknown) => {
        agent = null;
        throw error;
      },
    );
    return agent;
  };
  return async (toolName, input, context): Promise<PermissionResult> => {
    try {
      return await askClaude(agentLine(await connect(), { unreachableMs }), {
        toolName,
        input,
        toolUseId: context.toolUseID,
        suggestions: context.suggestions,
        summary: context.title,
        signal: context.signal,
        cwd,
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      const why = error instanceof Error ? error.message : String(error);
      return { behavior: "deny", message: `Parley could not ask the person: ${why}. The tool was not run.` };
    }
  };
}

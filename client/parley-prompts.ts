// `parleyPrompts`: the person's messages in Parley as the Agent SDK's streaming input
// (`query({ prompt: parleyPrompts(…) })`). Each is acknowledged as delivered when the SDK takes it,
// one asking to interrupt first stops the running turn, and the input ends when the person stops
// the session.
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import type { AgentMessage } from "./agent-messages";
import { refuseAnsweringCredential } from "./credential-kind";
import { ExternalAgent } from "./external-agent";

/** What the session's devices read as the bridge that handed the messages over. */
export const AGENT_SDK_BRIDGE = "agent-sdk";

export interface ParleyPromptsOptions {
  /** The Parley origin (with `agentKey`). */
  server?: string;
  /** The person's agent key (`pak_…`): the only credential besides an agent link this input takes. */
  agentKey?: string;
  /** Accepted only when it holds an agent key (as with parleyCanUseTool). */
  token?: string;
  /** An agent link for an existing session, instead of `server` and `agentKey`. */
  link?: string;
  /** Shown on every card and message (default "Agent SDK"); give parleyCanUseTool the same. */
  name?: string;
  /** The session's key: give parleyCanUseTool the same one, so cards and messages share one session. */
  key?: string;
  title?: string;
  /** The first turn's prompt, yielded before any message from Parley. */
  prompt?: string;
  /**
   * Stops the running turn, for a message sent with `interrupt: true`: pass `() => q.interrupt()`
   * for the query this input feeds. Without it such a message simply comes next.
   */
  interrupt?: () => Promise<unknown>;
  /** Ends the input (and so the query, once its turn ends). */
  signal?: AbortSignal;
  /** How long Parley may be out of reach before the input throws (default: never). */
  unreachableMs?: number;
  /** Hears what the input could not do (an acknowledgement that failed); must not throw. */
  onError?: (error: unknown) => void;
}

function userMessage(text: string): SDKUserMessage {
  return { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null };
}

/**
 * The Agent SDK's streaming input, fed by the person's messages in Parley: yields the `prompt` (if
 * given), then every message sent to the session, each as the user's next turn.
 */
export function parleyPrompts(options: ParleyPromptsOptions): AsyncGenerator<SDKUserMessage, void> {
  // At once, before the query starts: the agent's process must never hold a credential that answers.
  refuseAnsweringCredential(options);
  return prompts(options);
}

async function* prompts(options: ParleyPromptsOptions): AsyncGenerator<SDKUserMessage, void> {
  if (options.prompt !== undefined) yield userMessage(options.prompt);
  const agent = await ExternalAgent.connect({
    name: options.name ?? "Agent SDK",
    ...(options.key ? { key: options.key } : {}),
    ...(options.server ? { server: options.server } : {}),
    ...(options.agentKey ? { agentKey: options.agentKey } : {}),
    ...(options.token ? { token: options.token } : {}),
    ...(options.link ? { link: options.link } : {}),
    ...(options.title ? { title: options.title } : {}),
  });
  const report = options.onError ?? (() => {});
  const follow = agent.messages({
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.unreachableMs !== undefined ? { unreachableMs: options.unreachableMs } : {}),
  });
  for await (const message of follow) {
    if (message.interrupt && options.interrupt) await options.interrupt().catch(report);
    // The SDK asked for its next input and takes this one now: that is the delivery.
    await acknowledge(agent, message, report);
    yield userMessage(message.text);
  }
}

async function acknowledge(agent: ExternalAgent, message: AgentMessage, report: (error: unknown) => void) {
  await agent.delivered(message.messageId, AGENT_SDK_BRIDGE).catch(report);
}

// Builds the Messages API request for the next model call from stored state, with prompt-caching
// breakpoints on the system prompt, the tool list and the rolling last message block.
import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageParam,
  ModelRequest,
  ToolSpec,
} from "../model/model-client";

export interface RequestInput {
  model: string;
  maxTokens: number;
  systemPrompt: string;
  tools: ToolSpec[];
  /** The delegated agent the call is for; null for the main agent. */
  agent?: string | null;
  messages: MessageParam[];
  /**
   * The turn already paused for a person. A 5-minute cache entry dies while someone thinks,
   * so the rolling breakpoint then uses the 1-hour TTL.
   */
  pausedForPerson: boolean;
}

// System prompt and tools change rarely and outlive any one pause: always cache them for an hour.
const LONG: CacheControlEphemeral = { type: "ephemeral", ttl: "1h" };
const SHORT: CacheControlEphemeral = { type: "ephemeral" };

export function buildModelRequest(input: RequestInput): ModelRequest {
  const tools = input.tools.map((tool, i) =>
    i === input.tools.length - 1 ? { ...tool, cache_control: LONG } : tool,
  );
  const messages = input.messages.map((message, i) =>
    i === input.messages.length - 1 ? markLastBlock(message, input.pausedForPerson ? LONG : SHORT) : message,
  );
  return {
    model: input.model,
    max_tokens: input.maxTokens,
    system: [{ type: "text", text: input.systemPrompt, cache_control: LONG }],
    tools,
    messages,
    ...(input.agent ? { agent: input.agent } : {}),
  };
}

function markLastBlock(message: MessageParam, cacheControl: CacheControlEphemeral): MessageParam {
  const content: ContentBlockParam[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
  const last = content[content.length - 1];
  if (last && "type" in last && last.type !== "thinking" && last.type !== "redacted_thinking") {
    content[content.length - 1] = { ...last, cache_control: cacheControl } as ContentBlockParam;
  }
  return { ...message, content } as MessageParam;
}

// The peer: an AIChatAgent whose model is the benchmark's local Messages API (MOCK_MODEL_URL),
// reached through the AI SDK's Anthropic provider, so its chunks carry the same emission stamps.
import { createAnthropic } from "@ai-sdk/anthropic";
import { AIChatAgent } from "@cloudflare/ai-chat";
import { routeAgentRequest } from "agents";
import { convertToModelMessages, streamText } from "ai";

export class BenchChat extends AIChatAgent {
  async onChatMessage(onFinish, options) {
    const anthropic = createAnthropic({ apiKey: "bench", baseURL: `${this.env.MOCK_MODEL_URL}/v1` });
    const result = streamText({
      model: anthropic("claude-bench"),
      messages: await convertToModelMessages(this.messages),
      onFinish,
      abortSignal: options?.abortSignal,
    });
    return result.toUIMessageStreamResponse();
  }
}

export default {
  async fetch(request, env) {
    return (await routeAgentRequest(request, env)) ?? new Response("agents peer", { status: 404 });
  },
};

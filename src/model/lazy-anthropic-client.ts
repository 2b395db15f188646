// The Anthropic client, loaded on a session's first model call: the SDK is the largest thing in the
// bundle, and a session object that only answers cards, replays events or serves a scripted or
// demo model never needs it.
import type { AnthropicModelClientOptions } from "./anthropic-client";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "./model-client";

export function lazyAnthropicClient(options: AnthropicModelClientOptions): ModelClient {
  let client: ModelClient | null = null;
  return {
    name: options.model,
    demo: false,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      // Once loaded, the client's own stream: no generator in between to pass each event on.
      if (client) return client.stream(request, signal);
      return (async function* () {
        const { AnthropicModelClient } = await import("./anthropic-client");
        client ??= new AnthropicModelClient(options);
        yield* client.stream(request, signal);
      })();
    },
  };
}

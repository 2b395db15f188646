// Reads a model stream the way a consumer must: blocks rebuilt from deltas, tool input parsed
// from the concatenated partial JSON. Checks the event order as it goes.
import type {
  ModelClient,
  ModelRequest,
  ModelStreamEvent,
  StopReason,
} from "../../../src/model/model-client";

export type AssembledBlock =
  | { type: "text"; text: string; deltas: number }
  | { type: "tool_use"; id: string; name: string; input: unknown; deltas: number };

export interface AssembledMessage {
  id: string;
  model: string;
  content: AssembledBlock[];
  stopReason: StopReason | null;
  usage: { input_tokens: number | null; output_tokens: number };
  eventTypes: string[];
}

export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export function assemble(events: ModelStreamEvent[]): AssembledMessage {
  const first = events[0];
  if (first?.type !== "message_start") throw new Error(`stream began with ${first?.type}`);
  if (events.at(-1)?.type !== "message_stop") throw new Error("stream did not end with message_stop");
  const message: AssembledMessage = {
    id: first.message.id,
    model: first.message.model,
    content: [],
    stopReason: null,
    usage: {
      input_tokens: first.message.usage.input_tokens,
      output_tokens: first.message.usage.output_tokens,
    },
    eventTypes: events.map((event) => event.type),
  };
  const json = new Map<number, string>();
  for (const event of events) {
    if (event.type === "content_block_start") {
      if (event.index !== message.content.length) throw new Error(`block ${event.index} out of order`);
      const block = event.content_block;
      if (block.type === "text") message.content.push({ type: "text", text: block.text, deltas: 0 });
      else if (block.type === "tool_use") {
        message.content.push({ type: "tool_use", id: block.id, name: block.name, input: {}, deltas: 0 });
        json.set(event.index, "");
      } else throw new Error(`unexpected block ${block.type}`);
    } else if (event.type === "content_block_delta") {
      const block = message.content[event.index];
      if (!block) throw new Error(`delta for unopened block ${event.index}`);
      block.deltas++;
      if (event.delta.type === "text_delta" && block.type === "text") block.text += event.delta.text;
      else if (event.delta.type === "input_json_delta" && block.type === "tool_use") {
        json.set(event.index, (json.get(event.index) ?? "") + event.delta.partial_json);
      } else throw new Error(`delta ${event.delta.type} does not fit block ${block.type}`);
    } else if (event.type === "content_block_stop") {
      const block = message.content[event.index];
      if (block?.type === "tool_use") block.input = JSON.parse(json.get(event.index) || "{}");
    } else if (event.type === "message_delta") {
      message.stopReason = event.delta.stop_reason;
      message.usage = { input_tokens: event.usage.input_tokens, output_tokens: event.usage.output_tokens };
    }
  }
  return message;
}

/** A minimal valid request; `overrides` replace whole fields. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-test",
    max_tokens: 1024,
    system: [{ type: "text", text: "You are a test." }],
    messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
    tools: [],
    ...overrides,
  };
}

/** Streams one call and assembles it. */
export async function call(client: ModelClient, body: ModelRequest = request()): Promise<AssembledMessage> {
  return assemble(await collect(client.stream(body, new AbortController().signal)));
}

// A local Messages API for the real Claude Code CLI and Agent SDK: a Node HTTP server on loopback
// that streams scripted replies as the API's SSE events and records every request, so a test can
// read what the model was sent next (a denial's reason, a chosen label, what a command printed).
//
// The main loop's requests carry tools; Claude Code also makes side requests (titles, summaries)
// without tools, which get a short text reply and do not advance the script. The script position
// is the number of assistant turns already in the conversation, so a retried request gets the
// same reply.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface ScriptedTurn {
  content: ScriptBlock[];
}

/** A turn written from what the model was sent (e.g. a path named in the system prompt). */
export type ScriptStep = ScriptedTurn | ((body: Record<string, unknown>) => ScriptedTurn);

/** The plan file Claude Code asks the model to write in plan mode, from the request's prompts. */
export function planFilePathOf(body: Record<string, unknown>): string | null {
  const match = /create your plan at (\S+\.md)/.exec(JSON.stringify(body));
  return match?.[1] ?? null;
}

/** The id of the Bash call `touch(file)` makes, to read its result with `toolResultFor`. */
export const touchId = (file: string): string => `toolu_touch_${file.replace(/\W/g, "")}`;

/** A Bash call that creates a file in the project directory. */
export const touch = (file: string, id = touchId(file)): ScriptedTurn => ({
  content: [
    { type: "text", text: `Creating ${file}.` },
    {
      type: "tool_use",
      id,
      name: "Bash",
      input: { command: `touch ${file}`, description: `Create ${file}` },
    },
  ],
});

/** The model's closing words repeat what the last tool result said, so the result shows what ran. */
export const reportLastResult: ScriptStep = (body) => closingWords(body);

function closingWords(body: Record<string, unknown>): ScriptedTurn {
  const messages = body.messages as Array<{ content: unknown }>;
  const last = JSON.stringify(messages.at(-1)?.content ?? "");
  return { content: [{ type: "text", text: `Finished. The tool said: ${last}` }] };
}

/**
 * A model for a run of several prompts, each deciding one thing: the latest file a user turn names
 * (`make <file>.txt`) gets a Bash call that touches it, once; anything after that call the closing
 * words. It reads the conversation rather than counting turns, so a turn the editor cancels shifts
 * nothing.
 */
export function touchEachNamedFile(body: Record<string, unknown>): ScriptedTurn {
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  const said = JSON.stringify(messages.filter((message) => message.role === "user").map((m) => m.content));
  const file = [...said.matchAll(/[Mm]ake ([\w-]+\.txt)/g)].at(-1)?.[1];
  if (!file || JSON.stringify(messages).includes(`"id":"${touchId(file)}"`)) return closingWords(body);
  return touch(file);
}

export interface RecordedModelRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface ModelServer {
  baseUrl: string;
  /** Every request to /v1/messages, in order. */
  requests: RecordedModelRequest[];
  /** The main loop's requests only (those offering tools). */
  mainRequests(): RecordedModelRequest[];
  /** The text of every tool_result the model was sent, in order. */
  toolResults(): string[];
  /** The text of the tool_result answering the call with this id, once the model was sent it. */
  toolResultFor(toolUseId: string): string | undefined;
  close(): Promise<void>;
}

type Message = { role: string; content: unknown };

function assistantTurns(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  return messages.filter((m) => m.role === "assistant").length;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string }) => (block.type === "text" ? (block.text ?? "") : ""))
    .join("");
}

type ToolResultBlock = { type?: string; content?: unknown; tool_use_id?: string };

function toolResultBlocksOf(body: Record<string, unknown>): ToolResultBlock[] {
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  const out: ToolResultBlock[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as ToolResultBlock[])
      if (block.type === "tool_result") out.push(block);
  }
  return out;
}

/** Every tool_result block in one request's conversation, as text. */
export function toolResultsOf(body: Record<string, unknown>): string[] {
  return toolResultBlocksOf(body).map((block) => textOf(block.content));
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function stream(res: ServerResponse, turn: ScriptedTurn, model: string, index: number): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const usage = { input_tokens: 10, output_tokens: 0 };
  sse(res, "message_start", {
    type: "message_start",
    message: {
      id: `msg_local_${index}_${Date.now()}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  turn.content.forEach((block, i) => {
    if (block.type === "text") {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index: i,
        content_block: { type: "text", text: "" },
      });
      sse(res, "content_block_delta", {
        type: "content_block_delta",
        index: i,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index: i,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      sse(res, "content_block_delta", {
        type: "content_block_delta",
        index: i,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index: i });
  });
  const usesTool = turn.content.some((b) => b.type === "tool_use");
  sse(res, "message_delta", {
    type: "message_delta",
    delta: { stop_reason: usesTool ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

function reply(res: ServerResponse, turn: ScriptedTurn, model: string, index: number): void {
  const usesTool = turn.content.some((b) => b.type === "tool_use");
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `msg_local_${index}`,
      type: "message",
      role: "assistant",
      model,
      content: turn.content,
      stop_reason: usesTool ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  );
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * Starts the server. `script[n]` answers the main loop's request that already holds n assistant
 * turns; past the end it answers "Done." so a run always ends. A function instead of a list answers
 * every main-loop request from the conversation it was sent.
 */
export async function startModelServer(
  script: ScriptStep[] | ((body: Record<string, unknown>) => ScriptedTurn),
): Promise<ModelServer> {
  const requests: RecordedModelRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const body: Record<string, unknown> =
        req.method === "POST" ? await readBody(req).catch(() => ({})) : {};
      if (path === "/v1/messages/count_tokens") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      if (path !== "/v1/messages") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: path } }));
        return;
      }
      requests.push({ path, body });
      const model = typeof body.model === "string" ? body.model : "claude-local";
      const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
      const index = assistantTurns(body);
      const title = { content: [{ type: "text" as const, text: "Local title" }] };
      const step = !hasTools ? title : Array.isArray(script) ? script[index] : script;
      const turn: ScriptedTurn =
        typeof step === "function" ? step(body) : (step ?? { content: [{ type: "text", text: "Done." }] });
      if (body.stream === true) stream(res, turn, model, index);
      else reply(res, turn, model, index);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const mainRequests = () =>
    requests.filter((r) => Array.isArray(r.body.tools) && (r.body.tools as unknown[]).length > 0);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    mainRequests,
    toolResults: () => {
      const last = mainRequests().at(-1);
      return last ? toolResultsOf(last.body) : [];
    },
    toolResultFor: (toolUseId) => {
      for (const request of mainRequests().reverse()) {
        const block = toolResultBlocksOf(request.body).find((one) => one.tool_use_id === toolUseId);
        if (block) return textOf(block.content);
      }
      return undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

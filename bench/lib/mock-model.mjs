// A local Anthropic Messages API (`POST /v1/messages`, streaming) that Parley's real SDK, the bare
// baseline and the agents peer all call. Each text delta is a stamp of the moment it was written
// to the socket, so a device can time every delta from the model's emission to its own receipt.
// The last user message says how to stream: `stream n=300 pace=2.5 pauseAt=20 pauseMs=2000`.
import { createServer } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { now } from "./clock.mjs";

/** Width of one stamp: `<` + 13 digits + `.` + 3 digits + `>`. */
export const STAMP_CHARS = 19;

/** The delta text for an emission at `ms` (client clock, milliseconds since the epoch). */
export function stamp(ms) {
  return `<${ms.toFixed(3).padStart(17, "0")}>`;
}

/**
 * Reads the stamps in `text` from `from` on; returns their times and where reading stopped (the
 * start of a stamp not yet complete). Throws on anything that is not a stamp: text was lost,
 * doubled or reordered.
 * @param {string} text
 * @param {number} from
 * @returns {{ stamps: number[], next: number }}
 */
export function readStamps(text, from) {
  const stamps = [];
  let at = from;
  while (at + STAMP_CHARS <= text.length) {
    const token = text.slice(at, at + STAMP_CHARS);
    if (token[0] !== "<" || token[STAMP_CHARS - 1] !== ">")
      throw new Error(`text is not a run of stamps at offset ${at}: ${JSON.stringify(token)}`);
    const value = Number(token.slice(1, -1));
    if (!Number.isFinite(value)) throw new Error(`bad stamp at offset ${at}: ${token}`);
    stamps.push(value);
    at += STAMP_CHARS;
  }
  return { stamps, next: at };
}

/**
 * The stream a prompt asks for.
 * @param {string} prompt
 * @returns {{ n: number, pace: number, pauseAt: number, pauseMs: number }}
 */
export function parsePrompt(prompt) {
  const get = (/** @type {string} */ key, /** @type {number} */ fallback) => {
    const match = new RegExp(`\\b${key}=([\\d.]+)`).exec(prompt);
    return match ? Number(match[1]) : fallback;
  };
  return { n: get("n", 1), pace: get("pace", 0), pauseAt: get("pauseAt", -1), pauseMs: get("pauseMs", 0) };
}

/** The text of the last user message of a Messages API request body. */
function lastUserText(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return last.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join(" ");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {import("node:http").ServerResponse} res @param {string} type @param {unknown} data */
function sse(res, type, data) {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/**
 * Streams one reply: `n` stamped deltas `pace` ms apart (on a fixed schedule, so a late timer
 * does not push every later delta back), with an optional silence of `pauseMs` before delta `pauseAt`.
 * @param {import("node:http").ServerResponse} res
 * @param {{ n: number, pace: number, pauseAt: number, pauseMs: number }} shape
 * @param {string} model
 */
async function streamReply(res, shape, model) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const id = `msg_bench_${Date.now().toString(36)}`;
  sse(res, "message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  sse(res, "content_block_start", { index: 0, content_block: { type: "text", text: "" } });
  let due = now();
  for (let i = 0; i < shape.n; i++) {
    if (i === shape.pauseAt) due += shape.pauseMs;
    if (i > 0) due += shape.pace;
    const wait = due - now();
    if (wait >= 1) await sleep(wait);
    else if (shape.pace > 0 || i === shape.pauseAt) await new Promise((resolve) => setImmediate(resolve));
    if (res.destroyed) return;
    sse(res, "content_block_delta", { index: 0, delta: { type: "text_delta", text: stamp(now()) } });
  }
  sse(res, "content_block_stop", { index: 0 });
  sse(res, "message_delta", {
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: shape.n },
  });
  sse(res, "message_stop", {});
  res.end();
}

/**
 * Starts the server on a free loopback port.
 * @returns {Promise<{ baseUrl: string, requests: () => number, close: () => Promise<void> }>}
 */
export async function startMockModel() {
  let requests = 0;
  const server = createServer((req, res) => {
    if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "not found" } }));
      return;
    }
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      requests += 1;
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "bad JSON" } }),
        );
        return;
      }
      streamReply(res, parsePrompt(lastUserText(body)), String(body.model ?? "bench-model")).catch(() =>
        res.destroy(),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("mock model server has no port");
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The same server on its own thread, so the devices' work in the benchmark's main thread never
 * delays an emission (stamps stay honest either way; pacing stays even this way).
 * @returns {Promise<{ baseUrl: string, close: () => Promise<void> }>}
 */
export async function startMockModelThread() {
  const worker = new Worker(new URL(import.meta.url), { workerData: { mockModel: true } });
  const baseUrl = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return { baseUrl: String(baseUrl), close: () => worker.terminate().then(() => undefined) };
}

if (!isMainThread && workerData?.mockModel) {
  const server = await startMockModel();
  parentPort?.postMessage(server.baseUrl);
}

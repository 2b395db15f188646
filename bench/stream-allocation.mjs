// Measures what one model stream allocates on its way through Parley's model client and stream
// assembler: bytes per 1 000 deltas and the top allocation sites, from V8's sampling heap profiler
// with collected objects included. Allocation, not time, so it means something on a busy machine.
//   node bench/stream-allocation.mjs [--deltas 1000] [--runs 3] [--top 12] [--no-assembler] [--ref COMMIT]
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { perThousand, SAMPLING, summarize, tables } from "./lib/heap-sampling.mjs";

const { values } = parseArgs({
  options: {
    deltas: { type: "string", default: "1000" },
    runs: { type: "string", default: "3" },
    top: { type: "string", default: "12" },
    "no-assembler": { type: "boolean", default: false },
    ref: { type: "string" },
  },
});
const deltas = Number(values.deltas);
const runs = Number(values.runs);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SDK = join(ROOT, "node_modules/@anthropic-ai/sdk");

// The client and the assembler bundled from the working tree; packages stay in node_modules so the
// profile can tell the SDK's allocations from Parley's by file.
const outDir = join(ROOT, "node_modules/.cache/parley-bench");
mkdirSync(outDir, { recursive: true });
// With --ref, the code of that commit (its src/ unpacked next to the bundle) instead of the working tree.
const SOURCE = values.ref ? join(outDir, "source") : ROOT;
if (values.ref) {
  rmSync(SOURCE, { recursive: true, force: true });
  mkdirSync(SOURCE);
  execFileSync(
    "sh",
    ["-c", `git archive ${JSON.stringify(values.ref)} src | tar -x -C ${JSON.stringify(SOURCE)}`],
    {
      cwd: ROOT,
    },
  );
}
const entry = join(outDir, "stream-allocation-entry.ts");
const outfile = join(outDir, "stream-allocation.mjs");
await build({
  stdin: {
    contents: [
      `export { AnthropicModelClient } from ${JSON.stringify(join(SOURCE, "src/model/anthropic-client.ts"))};`,
      `export { StreamAssembler } from ${JSON.stringify(join(SOURCE, "src/agent/stream-assembler.ts"))};`,
    ].join("\n"),
    resolveDir: outDir,
    sourcefile: entry,
    loader: "ts",
  },
  bundle: true,
  format: "esm",
  platform: "node",
  packages: "external",
  outfile,
  logLevel: "error",
});
const { AnthropicModelClient, StreamAssembler } = await import(pathToFileURL(outfile).href);

/** The Messages API's SSE for one text reply of `n` four-character deltas, one network chunk per event. */
function sseChunks(n) {
  const encoder = new TextEncoder();
  const event = (type, data) =>
    encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = {
    input_tokens: 10,
    output_tokens: 1,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
  };
  const chunks = [
    event("message_start", {
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    }),
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    event("ping", {}),
  ];
  for (let i = 0; i < n; i++) {
    chunks.push(
      event("content_block_delta", {
        index: 0,
        delta: { type: "text_delta", text: `w${String(i % 1000).padStart(3, "0")}` },
      }),
    );
  }
  chunks.push(
    event("content_block_stop", { index: 0 }),
    event("message_delta", {
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: n },
    }),
    event("message_stop", {}),
  );
  return chunks;
}

const chunks = sseChunks(deltas);
// Serves the prepared chunks, one per read, as the network would hand them over.
const fakeFetch = async () => {
  let i = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
};
const client = new AnthropicModelClient({
  apiKey: "k",
  model: "m",
  baseURL: "http://model.test",
  fetch: fakeFetch,
  maxRetries: 0,
});
const request = {
  model: "m",
  max_tokens: 1024,
  system: [{ type: "text", text: "s" }],
  messages: [{ role: "user", content: "hi" }],
  tools: [],
};

let sink = 0;
/** One model call, consumed as the agent loop does: each event into an assembler whose live frames are serialised. */
async function oneStream() {
  const assembler = values["no-assembler"]
    ? null
    : new StreamAssembler(
        () => {},
        () => performance.now(),
        {
          live: (delta) => (sink += JSON.stringify({ type: "delta", turnId: "t", call: 1, ...delta }).length),
        },
      );
  let seen = 0;
  for await (const event of client.stream(request, new AbortController().signal)) {
    assembler?.push(event);
    seen++;
  }
  const message = assembler?.finish();
  if (message && message.content[0]?.text.length !== deltas * 4) throw new Error("the stream lost text");
  return seen;
}

/**
 * Which part of the code a sample belongs to: Node's own code where the allocation happened there
 * (web streams, text decoding: native code in workerd), else the innermost frame of the SDK,
 * Parley or this harness (built-ins such as JSON.parse count for their caller).
 */
function ownerOf(stack) {
  if (stack.at(-1)?.url.startsWith("node:")) return "runtime (body reads, text decoding)";
  for (let i = stack.length - 1; i >= 0; i--) {
    const { url, functionName } = stack[i];
    if (url.includes("/@anthropic-ai/sdk/")) return "SDK";
    if (url.endsWith("stream-allocation.mjs") && url.includes(".cache")) return "Parley";
    if (url.endsWith("bench/stream-allocation.mjs")) {
      return /pull|fakeFetch/.test(functionName) ? "fake network" : "consumer (the loop's stand-in)";
    }
  }
  return "runtime (body reads, text decoding)";
}

function siteOf(frame) {
  const file = frame.url.startsWith("file://")
    ? relative(ROOT, fileURLToPath(frame.url))
    : frame.url || "(native)";
  const short = file.startsWith(relative(ROOT, SDK)) ? `sdk/${relative(relative(ROOT, SDK), file)}` : file;
  return `${frame.functionName || "(anonymous)"} (${short.replace("node_modules/.cache/parley-bench/stream-allocation.mjs", "parley bundle")}:${frame.lineNumber + 1})`;
}

const session = new Session();
session.connect();
await oneStream(); // warm-up: compiled code and one-time objects are not a stream's garbage
const results = [];
for (let run = 0; run < runs; run++) {
  globalThis.gc?.();
  await session.post("HeapProfiler.startSampling", SAMPLING);
  await oneStream();
  const { profile } = await session.post("HeapProfiler.stopSampling");
  results.push(summarize(profile, ownerOf, siteOf));
}
session.disconnect();

const totals = results.map((r) => r.total).sort((a, b) => a - b);
const mid = results.find((r) => r.total === totals[Math.floor(totals.length / 2)]);
console.log(
  `# ${deltas} deltas through the model client${values["no-assembler"] ? "" : " and the stream assembler"}, ${runs} runs`,
);
console.log(
  `\nper 1 000 deltas: ${results.map((r) => perThousand(r.total, deltas)).join(", ")} (median ${perThousand(mid.total, deltas)})\n`,
);
console.log(tables(mid, deltas, Number(values.top)));
if (sink < 0) console.log(sink);

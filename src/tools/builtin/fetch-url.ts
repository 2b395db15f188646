// fetch_url: reads a public web page or text resource, within a time limit and a byte cap,
// and gives the model readable text (HTML is reduced to its text and title).
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { defineTool, type ToolOutput } from "../define-tool";
import { checkPublicUrl } from "./public-url";

export const DEFAULT_FETCH_BYTES = 100 * 1024;
export const MAX_FETCH_BYTES = 1024 * 1024;
export const FETCH_TIMEOUT_MS = 10_000;
/** Each hop is checked again, so a public page cannot redirect the fetch into a private network. */
const MAX_REDIRECTS = 5;
const ERROR_EXCERPT_BYTES = 2 * 1024;

const input = lazySchema(() =>
  z.object({
    url: z.string().max(2048).describe("Absolute http:// or https:// URL of a public page."),
    maxBytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_FETCH_BYTES)
      .optional()
      .describe(
        `Most bytes of the body to read (default ${DEFAULT_FETCH_BYTES}, at most ${MAX_FETCH_BYTES}).`,
      ),
  }),
);

/** Options for tests and deployments that need a different time limit. */
export interface FetchUrlOptions {
  timeoutMs?: number;
}

/** Builds the fetch_url tool; `fetchUrl` below is the default instance. */
export function createFetchUrlTool({ timeoutMs = FETCH_TIMEOUT_MS }: FetchUrlOptions = {}) {
  return defineTool({
    name: "fetch_url",
    description:
      "Fetch a public web page or text resource over http(s) and return its status, final URL, " +
      "content type and readable text (HTML is converted to plain text, with its title). " +
      `Reads at most maxBytes of the body and gives up after ${timeoutMs / 1000} s. ` +
      "Local and private network addresses are refused.",
    input,
    risk: "network",
    // A GET is safe to repeat, so re-running it after an interruption does no harm.
    idempotent: true,
    async run({ url, maxBytes = DEFAULT_FETCH_BYTES }, ctx): Promise<ToolOutput> {
      // A timer cleared on the way out rather than AbortSignal.timeout, so no 10-s timer outlives the call.
      const timeout = new AbortController();
      const timer = setTimeout(
        () => timeout.abort(new DOMException("fetch_url timed out", "TimeoutError")),
        timeoutMs,
      );
      const signal = AbortSignal.any([ctx.signal, timeout.signal]);
      try {
        const response = await fetchFollowingRedirects(ctx.fetch, url, signal);
        if ("refused" in response) return { content: response.refused, isError: true };
        return await describeResponse(response.response, response.url, maxBytes, signal);
      } catch (error) {
        if (ctx.signal.aborted) return { content: `Fetching ${url} was cancelled.`, isError: true };
        if (signal.aborted) {
          return { content: `Fetching ${url} timed out after ${timeoutMs / 1000} s.`, isError: true };
        }
        const reason = error instanceof Error ? error.message : String(error);
        return { content: `Could not fetch ${url}: ${reason}`, isError: true };
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

/** The default fetch_url tool (10 s limit). */
export const fetchUrl = createFetchUrlTool();

type Fetched = { response: Response; url: string } | { refused: string };

async function fetchFollowingRedirects(
  fetcher: typeof fetch,
  startUrl: string,
  signal: AbortSignal,
): Promise<Fetched> {
  let current = startUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const check = checkPublicUrl(current);
    if (!check.ok) {
      return {
        refused: hop === 0 ? check.reason : `Redirected to ${current}, which is refused: ${check.reason}`,
      };
    }
    const response = await fetcher(check.url.href, {
      method: "GET",
      redirect: "manual",
      signal,
      headers: {
        accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
        "user-agent": "Parley/0.1 (fetch_url tool)",
      },
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) {
      return { response, url: check.url.href };
    }
    await response.body?.cancel();
    current = new URL(location, check.url).href;
  }
  return { refused: `Stopped after ${MAX_REDIRECTS} redirects (last: ${current}).` };
}

async function describeResponse(
  response: Response,
  url: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<ToolOutput> {
  const contentType = response.headers.get("content-type") ?? "";
  const mime = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const header = [`URL: ${url}`, `Status: ${status}`, `Content-Type: ${contentType || "(none)"}`];

  if (!response.ok) {
    const excerpt = isTextual(mime) ? await readCapped(response, ERROR_EXCERPT_BYTES, signal) : null;
    const body = excerpt ? (await toText(excerpt.text, mime)).text.slice(0, 1000) : "";
    const lines = [`HTTP ${status} from ${url}`, ...header.slice(2)];
    return { content: body ? `${lines.join("\n")}\n\n${body}` : lines.join("\n"), isError: true };
  }
  if (!isTextual(mime)) {
    await response.body?.cancel();
    return [...header, "", `The body is not text (${mime || "unknown type"}), so it is not shown.`].join(
      "\n",
    );
  }

  const body = await readCapped(response, maxBytes, signal);
  const page = await toText(body.text, mime);
  if (page.title !== null) header.push(`Title: ${page.title}`);
  if (body.truncated) {
    header.push(
      `Truncated: only the first ${maxBytes} bytes were read` +
        (maxBytes < MAX_FETCH_BYTES ? ` (maxBytes can go up to ${MAX_FETCH_BYTES}).` : "."),
    );
  }
  return [...header, "", page.text || "(empty body)"].join("\n");
}

function isTextual(mime: string): boolean {
  return (
    mime === "" ||
    mime.startsWith("text/") ||
    /[+/](?:json|xml)$/.test(mime) ||
    mime === "application/javascript" ||
    mime === "application/x-www-form-urlencoded"
  );
}

// The HTML reader is loaded on the first page that needs it: its entity tables take a few
// milliseconds to build, which the Worker's start-up need not pay.
async function toText(body: string, mime: string): Promise<{ title: string | null; text: string }> {
  const isHtml = mime === "text/html" || mime === "application/xhtml+xml";
  if (!isHtml) return { title: null, text: body };
  const { htmlToText } = await import("../html-to-text");
  return htmlToText(body);
}

/**
 * Reads at most `maxBytes` of the body and cancels the stream past that, so a huge or endless
 * body costs no more than the cap. Bytes of a character cut at the cap are dropped, not mangled.
 */
async function readCapped(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: "", truncated: false };
  const decoder = decoderFor(response.headers.get("content-type"));
  const reader = response.body.getReader();
  // A cancelled stream settles the pending read, so an abort cannot leave the loop waiting.
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  let text = "";
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal.throwIfAborted();
      if (done) return { text: text + decoder.decode(), truncated: false };
      const room = maxBytes - received;
      if (value.byteLength > room) {
        text += decoder.decode(value.subarray(0, room), { stream: true });
        await reader.cancel().catch(() => {});
        return { text, truncated: true };
      }
      received += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function decoderFor(contentType: string | null): TextDecoder {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8"); // an unknown label is the server's mistake; utf-8 is the best guess
  }
}

// A 300-turn session end to end: the Worker, the Durable Object (its SQLite, the WebSocket command
// path, evictions), the real Anthropic SDK, and a fake network edge serving the Messages API —
// which rejects a prompt over the model's window as the API does — and a site of large pages.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CLEARED_RESULT, SUMMARY_PREFIX } from "../../../src/agent/context-budget";
import type { ContentBlockParam, MessageParam } from "../../../src/model/model-client";
import { FETCH_TIMEOUT_MS } from "../../../src/tools/builtin/fetch-url";
import { createMessagesApiFetch, type FakeApiResponse } from "../../helpers/messages-api-fetch";
import { MODEL_API_BINDINGS, MODEL_API_HOST } from "../../helpers/model-api-bindings";
import { serveHosts } from "../../helpers/model-api-network";
import { api, connect, createSession } from "../../helpers/session-harness";
import { eventsOf, stubOf } from "../../helpers/session-object-probe";
import { expectValidTranscript, transcriptProblems } from "../../helpers/valid-transcript";

const TURNS = 300;
const WINDOW = Number(MODEL_API_BINDINGS.MODEL_CONTEXT_TOKENS);
const DOCS_HOST = "docs.parley.test";
/** Characters of text on each page the model reads: a few pages fill the window. */
const PAGE_CHARS = 4_000;

/** A page of the documentation site, as HTML. */
function page(n: number): string {
  const sentence = `Page ${n} of the handbook explains one more corner of the system in detail. `;
  const paragraphs = Array.from(
    { length: 8 },
    () => `<p>${sentence.repeat(PAGE_CHARS / 8 / sentence.length)}</p>`,
  );
  return `<!doctype html><title>Handbook page ${n}</title><h1>Page ${n}</h1>${paragraphs.join("")}`;
}

const blocksOf = (message: MessageParam | undefined): ContentBlockParam[] =>
  !message
    ? []
    : typeof message.content === "string"
      ? [{ type: "text", text: message.content }]
      : message.content;

const resultText = (block: ContentBlockParam): string =>
  block.type !== "tool_result"
    ? ""
    : typeof block.content === "string"
      ? block.content
      : (block.content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");

/**
 * The model behind the fake API. Like the real one it counts the prompt (here at a generous 4
 * characters a token) and answers 400 `invalid_request_error` when it does not fit. Otherwise a
 * turn fetches the page the person asked for and then says it read it; a request to summarize gets
 * a summary. Every request it accepts must be a transcript the Messages API accepts.
 */
function sizeStrictModel() {
  const seen = {
    rejected: [] as string[],
    invalid: [] as string[],
    summaries: 0,
    largestResult: 0,
    lastMessages: [] as MessageParam[],
  };
  const tooLong = (message: string): FakeApiResponse => {
    seen.rejected.push(message);
    return { status: 400, error: { type: "invalid_request_error", message } };
  };
  const respond = (body: Record<string, unknown>): FakeApiResponse => {
    const messages = body.messages as MessageParam[];
    const system = body.system as Array<{ text: string }>;
    const tokens = Math.ceil(JSON.stringify([body.system, body.tools ?? [], messages]).length / 4);
    const maxTokens = Number(body.max_tokens);
    if (tokens > WINDOW) return tooLong(`prompt is too long: ${tokens} tokens > ${WINDOW} maximum`);
    if (tokens + maxTokens > WINDOW) {
      return tooLong(
        `input length and \`max_tokens\` exceed context limit: ${tokens} + ${maxTokens} > ${WINDOW}, decrease input length or \`max_tokens\` and try again`,
      );
    }
    if (system[0]?.text.startsWith("You compact conversations")) {
      seen.summaries += 1;
      const text = `Summary ${seen.summaries}: the person has had the handbook read to them one page at a time.`;
      return { reply: { content: [{ type: "text", text }] } };
    }
    seen.invalid.push(...transcriptProblems(messages));
    seen.lastMessages = messages;
    const last = blocksOf(messages.at(-1));
    const results = last.filter((block) => block.type === "tool_result");
    for (const block of results) seen.largestResult = Math.max(seen.largestResult, resultText(block).length);
    const asked = blocksOf(
      messages.findLast((m) => m.role === "user" && !blocksOf(m).some((b) => b.type === "tool_result")),
    );
    const n = /Read page (\d+)/.exec(asked.map((b) => (b.type === "text" ? b.text : "")).join(" "))?.[1];
    if (results.length > 0) return { reply: { content: [{ type: "text", text: `I read page ${n}.` }] } };
    const url = `https://${DOCS_HOST}/pages/${n}`;
    return { reply: { content: [{ type: "tool_use", name: "fetch_url", input: { url } }] } };
  };
  return { api: createMessagesApiFetch(respond, { chunks: "whole" }), seen };
}

const model = sizeStrictModel();
serveHosts({
  [MODEL_API_HOST]: model.api.fetch,
  [DOCS_HOST]: (input) => {
    const n = Number(
      new URL(input instanceof Request ? input.url : String(input)).pathname.split("/").at(-1),
    );
    return new Response(page(n), { headers: { "content-type": "text/html; charset=utf-8" } });
  },
});

/** Messages as stored: requests mark the prompt cache's breakpoints, the transcript does not. */
const withoutCacheMarks = (messages: MessageParam[]): MessageParam[] =>
  JSON.parse(JSON.stringify(messages, (key, value) => (key === "cache_control" ? undefined : value)));

describe("a long session against a model that rejects oversized prompts", () => {
  it("runs 300 turns with large tool results through evictions, every turn succeeding", {
    timeout: 120_000,
  }, async () => {
    const session = await createSession({ permissionMode: "bypassPermissions" });
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });

    for (let turn = 1; turn <= TURNS; turn++) {
      const ack = await phone.request({ type: "send_message", text: `Read page ${turn}, please.` });
      expect(ack, `turn ${turn}: ${JSON.stringify(ack)}`).toMatchObject({ ok: true });
      // A page fetch the test network drops (the pool's loopback refused a connection once in CI)
      // ends at fetch_url's own timeout with an error result; the turn still ends, so wait past it.
      const done = await phone.waitForDone(turn, FETCH_TIMEOUT_MS + 5_000);
      expect(done.data.stopReason, `turn ${turn}`).toBe("end_turn");
      model.api.requests.length = 0; // a long run keeps only what it checks
      if (turn % 100 === 50) await evictDurableObject(stubOf(session), { webSockets: "hibernate" });
    }
    await laptop.waitForDone(TURNS);

    expect(model.seen.rejected).toEqual([]);
    expect(model.seen.invalid).toEqual([]);
    expect(model.seen.largestResult).toBeGreaterThan(PAGE_CHARS * 0.9);
    for (const device of [phone, laptop]) {
      expect(eventsOf(device, "error")).toEqual([]);
      expect(eventsOf(device, "done").map((event) => event.data.stopReason)).toEqual(
        Array.from({ length: TURNS }, () => "end_turn"),
      );
      const compactions = eventsOf(device, "context_compacted");
      expect(new Set(compactions.map((event) => event.data.action))).toEqual(
        new Set(["cleared_tool_results", "summarized"]),
      );
      for (const event of compactions) expect(event.data.tokensAfter).toBeLessThan(event.data.tokensBefore);
    }
    expect(model.seen.summaries).toBeGreaterThan(0);
    const replies = eventsOf(phone, "text_delta")
      .map((event) => event.data.text)
      .join("");
    expect(replies).toContain(`I read page 1.`);
    expect(replies).toContain(`I read page ${TURNS}.`);

    // What is stored is what the next call will send: a valid transcript that opens with the
    // model's summary, has old results cleared, and ends with the last turn's reply.
    const exported = await api("GET", `/api/sessions/${session.sessionId}/export`, { token: session.token });
    const { transcript } = (await exported.json()) as { transcript: MessageParam[] };
    expectValidTranscript(transcript);
    expect(JSON.stringify(transcript[0])).toContain(SUMMARY_PREFIX.slice(0, 40));
    expect(JSON.stringify(transcript)).toContain(CLEARED_RESULT);
    expect(transcript.slice(0, model.seen.lastMessages.length)).toEqual(
      withoutCacheMarks(model.seen.lastMessages),
    );
    expect(transcript.at(-1)).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: `I read page ${TURNS}.` }],
    });
    phone.close();
    laptop.close();
  });
});

import { describe, expect, it } from "vitest";
import {
  createFetchUrlTool,
  DEFAULT_FETCH_BYTES,
  MAX_FETCH_BYTES,
} from "../../../../src/tools/builtin/fetch-url";
import { createToolRegistry } from "../../../../src/tools/registry";
import { toolContext } from "../tool-context";
import { fakeFetch, meteredBody, neverAnswering, stallingBody } from "./fake-fetch";

const registry = createToolRegistry([createFetchUrlTool({ timeoutMs: 100 })]);

function fetchWith(fetch: typeof globalThis.fetch, input: unknown, signal?: AbortSignal) {
  return registry.execute("fetch_url", input, toolContext({ fetch, ...(signal ? { signal } : {}) }));
}

// The status text is set as a server would send it: runtimes disagree on what `new Response` fills in.
const html = (body: string, init: ResponseInit = {}) =>
  new Response(body, {
    statusText: "OK",
    ...init,
    headers: { "content-type": "text/html; charset=utf-8", ...init.headers },
  });

describe("fetch_url on a page", () => {
  it("returns the status, final URL, content type, title and readable text of an HTML page", async () => {
    const { fetch, calls } = fakeFetch(() =>
      html(
        `<html><head><title>Tide tables</title><script>track()</script></head>
         <body><h1>High tide</h1><p>06:42 &ndash; 4.1&nbsp;m</p><style>p{}</style></body></html>`,
      ),
    );
    const result = await fetchWith(fetch, { url: "https://tides.example/today" });
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      [
        "URL: https://tides.example/today",
        "Status: 200 OK",
        "Content-Type: text/html; charset=utf-8",
        "Title: Tide tables",
        "",
        "High tide\n\n06:42 – 4.1 m",
      ].join("\n"),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.init?.signal).toBeInstanceOf(AbortSignal);
    expect(calls[0]?.init?.redirect).toBe("manual");
  });

  it("returns plain text and JSON as they are", async () => {
    const { fetch } = fakeFetch(
      () =>
        new Response('{"ok":true,"html":"<b>x</b>"}', { headers: { "content-type": "application/json" } }),
    );
    const result = await fetchWith(fetch, { url: "https://api.example/v1" });
    expect(result.content).toMatch(/Content-Type: application\/json\n\n\{"ok":true,"html":"<b>x<\/b>"\}$/);
  });

  it("does not dump binary bodies on the model", async () => {
    const { stream, meter } = meteredBody(5_000_000);
    const { fetch } = fakeFetch(() => new Response(stream, { headers: { "content-type": "image/png" } }));
    const result = await fetchWith(fetch, { url: "https://img.example/cat.png" });
    expect(result.isError).toBe(false);
    expect(result.content).toContain("The body is not text (image/png), so it is not shown.");
    expect(meter.pulled).toBeLessThan(5_000_000);
  });

  it("follows redirects and reports the final URL", async () => {
    const { fetch, calls } = fakeFetch((url) =>
      url === "https://old.example/"
        ? new Response(null, { status: 301, headers: { location: "/moved?x=1" } })
        : new Response("here now", { headers: { "content-type": "text/plain" } }),
    );
    const result = await fetchWith(fetch, { url: "https://old.example/" });
    expect(calls.map((call) => call.url)).toEqual(["https://old.example/", "https://old.example/moved?x=1"]);
    expect(result.content).toMatch(/^URL: https:\/\/old\.example\/moved\?x=1\n/);
    expect(result.content).toMatch(/here now$/);
  });
});

describe("fetch_url limits", () => {
  it("stops reading a huge body at the byte cap and says the text was truncated", async () => {
    const total = 8 * 1024 * 1024;
    const cap = 64 * 1024;
    const { stream, meter } = meteredBody(total);
    const { fetch } = fakeFetch(() => new Response(stream, { headers: { "content-type": "text/plain" } }));
    const result = await fetchWith(fetch, { url: "https://big.example/log.txt", maxBytes: cap });
    expect(result.isError).toBe(false);
    expect(result.content).toContain(
      `Truncated: only the first ${cap} bytes were read (maxBytes can go up to ${MAX_FETCH_BYTES}).`,
    );
    expect(result.content.endsWith(`\n\n${"a".repeat(cap)}`)).toBe(true);
    expect(meter.pulled).toBeLessThan(cap * 2);
    expect(meter.cancelled).toBe(true);
  });

  it("reads 100 KB by default", async () => {
    const { stream, meter } = meteredBody(4 * 1024 * 1024);
    const { fetch } = fakeFetch(() => new Response(stream, { headers: { "content-type": "text/html" } }));
    const result = await fetchWith(fetch, { url: "https://big.example/" });
    expect(result.content).toContain(`Truncated: only the first ${DEFAULT_FETCH_BYTES} bytes were read`);
    expect(DEFAULT_FETCH_BYTES).toBe(100 * 1024);
    expect(meter.pulled).toBeLessThan(DEFAULT_FETCH_BYTES * 2);
  });

  it("reads a 1 MB page of unclosed tags as text, cut to the tool output limit", async () => {
    const { fetch } = fakeFetch(() => html("<div ".repeat(200_000)));
    const result = await fetchWith(fetch, { url: "https://broken.example/", maxBytes: MAX_FETCH_BYTES });
    expect(result.isError).toBe(false);
    expect(result.truncated).toBe(true);
    expect(result.content).toMatch(/\n\n<div <div <div /);
  });

  it("honours a smaller maxBytes and never splits a character at the cut", async () => {
    const { fetch } = fakeFetch(
      () => new Response("é".repeat(50), { headers: { "content-type": "text/plain; charset=utf-8" } }),
    );
    const result = await fetchWith(fetch, { url: "https://fr.example/", maxBytes: 7 });
    expect(result.content).toMatch(/Truncated: only the first 7 bytes were read/);
    expect(result.content.endsWith("\n\néé\u00e9")).toBe(true);
    expect(result.content).not.toContain("\uFFFD");
  });

  it("rejects a maxBytes above the hard limit as invalid input", async () => {
    const { fetch, calls } = fakeFetch(() => new Response("x"));
    const result = await fetchWith(fetch, { url: "https://a.example/", maxBytes: MAX_FETCH_BYTES + 1 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/maxBytes: /);
    expect(calls).toHaveLength(0);
  });

  it("gives up with a timeout error when the server does not answer", async () => {
    const result = await fetchWith(neverAnswering(), { url: "https://slow.example/" });
    expect(result).toEqual({
      content: "Fetching https://slow.example/ timed out after 0.1 s.",
      isError: true,
      truncated: false,
    });
  });

  it("gives up with a timeout error when the body stalls, and cancels the body", async () => {
    const { stream, meter } = stallingBody("partial");
    const { fetch } = fakeFetch(() => new Response(stream, { headers: { "content-type": "text/plain" } }));
    const result = await fetchWith(fetch, { url: "https://drip.example/" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/timed out after 0\.1 s/);
    expect(meter.cancelled).toBe(true);
  });

  it("stops when the turn is cancelled", async () => {
    const controller = new AbortController();
    // The turn is cancelled once the request is out, while the tool waits for its answer.
    const pending = fetchWith(
      neverAnswering(() => controller.abort()),
      { url: "https://slow.example/" },
      controller.signal,
    );
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/cancelled/);
  });
});

describe("fetch_url errors and refusals", () => {
  it("reports a non-2xx status as an error with a short excerpt of the body", async () => {
    const { fetch } = fakeFetch(() =>
      html("<h1>Not here</h1><p>Try the index.</p>", { status: 404, statusText: "Not Found" }),
    );
    const result = await fetchWith(fetch, { url: "https://docs.example/missing" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^HTTP 404 Not Found from https:\/\/docs\.example\/missing\n/);
    expect(result.content).toMatch(/Not here\n\nTry the index\.$/);
  });

  it("reports a network failure as an error", async () => {
    const { fetch } = fakeFetch(() => {
      throw new TypeError("Network connection lost.");
    });
    const result = await fetchWith(fetch, { url: "https://down.example/" });
    expect(result).toMatchObject({
      isError: true,
      content: "Could not fetch https://down.example/: Network connection lost.",
    });
  });

  it.each([
    "http://localhost:8787/api",
    "http://127.0.0.1/",
    "http://10.0.0.8/",
    "http://[::1]/",
    "http://169.254.169.254/",
  ])("refuses the local address %s without touching the network", async (url) => {
    const { fetch, calls } = fakeFetch(() => new Response("secret"));
    const result = await fetchWith(fetch, { url });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Refusing to fetch .*: it is a local or private network address\.$/);
    expect(calls).toHaveLength(0);
  });

  it("refuses a scheme other than http and https", async () => {
    const { fetch, calls } = fakeFetch(() => new Response("x"));
    const result = await fetchWith(fetch, { url: "file:///etc/passwd" });
    expect(result).toMatchObject({
      isError: true,
      content: "Only http and https URLs can be fetched, not file:",
    });
    expect(calls).toHaveLength(0);
  });

  it("refuses to follow a redirect into a private network", async () => {
    const { fetch, calls } = fakeFetch(
      () => new Response(null, { status: 302, headers: { location: "http://192.168.0.1/admin" } }),
    );
    const result = await fetchWith(fetch, { url: "https://evil.example/" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Redirected to http:\/\/192\.168\.0\.1\/admin, which is refused: /);
    expect(calls).toHaveLength(1);
  });

  it("stops following an endless redirect loop", async () => {
    const { fetch, calls } = fakeFetch(
      () => new Response(null, { status: 302, headers: { location: "/again" } }),
    );
    const result = await fetchWith(fetch, { url: "https://loop.example/" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Stopped after 5 redirects/);
    expect(calls).toHaveLength(6);
  });
});

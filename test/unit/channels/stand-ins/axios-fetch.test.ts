// The Worker's Slack Web API client sends through the axios stand-in (wrangler.toml's [alias]); here
// one real WebClient runs over axios (the browser build the Worker bundled, which sends by `fetch`)
// and another over the stand-in, both against the same answers at `fetch`, and each call must go
// out and come back the same: request, result or error.
import { LogLevel, WebClient } from "@slack/web-api";
// @ts-expect-error: the package types its entry, not this file of it.
import axiosBrowser from "axios/dist/browser/axios.cjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import axiosFetch from "../../../../src/channels/stand-ins/axios-fetch";

type Answer = Response | Error | Promise<Response>;

/** What went out: the request as the API would read it. */
interface Sent {
  method: string;
  url: string;
  redirect: string;
  headers: [string, string][];
  body: string;
}

const API = "https://slack.parley.test/api/";

/** Answers each request with the next of `answers`, recording it. */
function serve(answers: ((request: Request) => Answer)[]): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({
      method: request.method,
      url: request.url,
      redirect: request.redirect,
      headers: [...request.headers].filter(([name]) => name !== "user-agent"),
      body: new TextDecoder().decode(await request.arrayBuffer()),
    });
    const answer = answers.shift()?.(request);
    if (!answer) throw new Error("no answer left");
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** WebClient's axios instance, which it keeps private. */
type WithAxios = { axios: ReturnType<typeof axiosFetch.create> };

/**
 * A WebClient as the Slack adapter builds it, its axios instance made again from `library` (the
 * browser build, or the stand-in): created with the options WebClient gave axios (read back from its
 * instance) and set up as its constructor sets axios up.
 */
function client(library: typeof axiosFetch, options: { timeout?: number }): WebClient {
  const web = new WebClient("xoxb-test", {
    slackApiUrl: API,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: LogLevel.ERROR,
    ...options,
  });
  const given = (web as unknown as WithAxios).axios.defaults as unknown as Record<string, unknown> & {
    headers: Record<string, unknown>;
  };
  const own = Object.entries(given.headers).filter(([, value]) => typeof value === "string");
  expect(Object.fromEntries(own)).toHaveProperty("Authorization", "Bearer xoxb-test");
  const instance = library.create({
    baseURL: given.baseURL as string,
    timeout: given.timeout as number,
    maxRedirects: given.maxRedirects as number,
    validateStatus: given.validateStatus,
    proxy: false,
    headers: Object.fromEntries(own) as Record<string, string>,
  });
  instance.defaults.headers.post = { ...instance.defaults.headers.post, "Content-Type": undefined };
  const serialize = (web as unknown as { serializeApiCallData: (config: unknown) => unknown })
    .serializeApiCallData;
  instance.interceptors.request.use(serialize.bind(web) as never);
  (web as unknown as WithAxios).axios = instance;
  return web;
}

/** What a call comes to: its result, or the error's fields WebClient and Parley read. */
async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return { result: await call };
  } catch (caught) {
    const error = caught as Record<string, unknown> & { original?: Record<string, unknown> };
    const { original, ...fields } = error;
    return {
      message: error.message,
      ...fields,
      ...(original
        ? { original: { message: original.message, code: original.code, sent: !!original.request } }
        : {}),
    };
  }
}

/** Runs `call` on a WebClient over axios and one over the stand-in, each served `answers`. */
async function both(
  answers: ((request: Request) => Answer)[],
  call: (web: WebClient) => Promise<unknown>,
  options: { timeout?: number } = {},
) {
  const runs = [];
  for (const library of [axiosBrowser as typeof axiosFetch, axiosFetch]) {
    const sent = serve([...answers]);
    const result = await outcome(call(client(library, options)));
    vi.unstubAllGlobals();
    runs.push({ sent, result });
  }
  const [viaAxios, viaStandIn] = runs as [(typeof runs)[0], (typeof runs)[0]];
  expect(viaAxios.sent.length).toBeGreaterThan(0);
  expect(viaStandIn).toEqual(viaAxios);
  return viaAxios;
}

const json =
  (body: unknown, init: ResponseInit = {}) =>
  () =>
    Response.json(body, init);

describe("Slack's Web API client over the axios stand-in", () => {
  it("posts a message as over axios: the same URL, headers and form body, and the same result", async () => {
    const { sent, result } = await both(
      [
        json(
          { ok: true, channel: "D1", ts: "1.2" },
          { headers: { "x-oauth-scopes": "chat:write, im:write" } },
        ),
      ],
      (web) =>
        web.chat.postMessage({
          channel: "D1",
          text: "Card & co",
          blocks: [{ type: "section", text: { type: "mrkdwn", text: "*hi*" } }],
        }),
    );
    expect(sent[0]).toMatchObject({ method: "POST", url: `${API}chat.postMessage`, redirect: "manual" });
    expect(sent[0]?.headers).toContainEqual(["content-type", "application/x-www-form-urlencoded"]);
    expect(result).toMatchObject({
      result: { ok: true, response_metadata: { scopes: ["chat:write", "im:write"] } },
    });
  });

  it("sends a call's own token in place of the client's", async () => {
    const { sent } = await both([json({ ok: true })], (web) => web.auth.test({ token: "xoxb-other" }));
    expect(sent[0]?.headers).toContainEqual(["authorization", "Bearer xoxb-other"]);
  });

  it("reports Slack's refusal (`ok: false`) as the same platform error", async () => {
    const { result } = await both([json({ ok: false, error: "channel_not_found" })], (web) =>
      web.conversations.open({ users: "U1" }),
    );
    expect(result).toMatchObject({ code: "slack_webapi_platform_error" });
  });

  it("reports a rate limit with its retry delay, as the outbox reads it", async () => {
    const { result } = await both(
      [() => new Response("", { status: 429, headers: { "retry-after": "7" } })],
      (web) => web.users.info({ user: "U1" }),
    );
    expect(result).toMatchObject({ code: "slack_webapi_rate_limited_error", retryAfter: 7 });
  });

  it("reports a server failure as the same HTTP error, with its status, headers and body", async () => {
    const { result } = await both(
      [
        () =>
          new Response("stand-in failure", {
            status: 503,
            statusText: "Unavailable",
            headers: { "x-a": "1" },
          }),
      ],
      (web) => web.chat.update({ channel: "D1", ts: "1.2", text: "receipt" }),
    );
    expect(result).toMatchObject({
      code: "slack_webapi_http_error",
      statusCode: 503,
      body: "stand-in failure",
    });
  });

  it("hands a server failure's JSON body on parsed, as axios does", async () => {
    const { result } = await both([json({ ok: false, error: "fatal_error" }, { status: 500 })], (web) =>
      web.auth.test(),
    );
    expect(result).toMatchObject({ statusCode: 500, body: { ok: false, error: "fatal_error" } });
  });

  it("reads an answer that is not JSON as Slack's client does: a failed result", async () => {
    const { result } = await both([() => new Response("<html>oops</html>")], (web) => web.auth.test());
    expect(result).toMatchObject({ code: "slack_webapi_platform_error", data: { ok: false } });
  });

  it("reports a request that got no answer as a request error, which the outbox retries", async () => {
    const { result } = await both([() => new TypeError("fetch failed")], (web) => web.auth.test());
    expect(result).toMatchObject({
      code: "slack_webapi_request_error",
      message: "A request error occurred: Network Error",
      original: { code: "ERR_NETWORK", sent: true },
    });
  });

  it("reports any other failure of the request with its own message", async () => {
    const { result } = await both([() => new Error("socket hang up")], (web) => web.auth.test());
    expect(result).toMatchObject({
      code: "slack_webapi_request_error",
      message: expect.stringContaining("socket hang up"),
    });
  });

  it("gives up on an answer that takes longer than the client's timeout, as a request error", async () => {
    const never = (request: Request) =>
      new Promise<Response>((_, reject) =>
        request.signal.addEventListener("abort", () => reject(request.signal.reason)),
      );
    const { result } = await both([never], (web) => web.auth.test(), { timeout: 1 });
    expect(result).toMatchObject({
      code: "slack_webapi_request_error",
      original: { message: "timeout of 1ms exceeded", code: "ETIMEDOUT", sent: true },
    });
  });

  it("refuses a custom adapter, which it would not call", () => {
    expect(() => axiosFetch.create({ adapter: () => undefined })).toThrow(/custom adapter is not supported/);
  });

  it("gives the client's base URL for a method's address, and joins a relative one to it", async () => {
    const instance = axiosFetch.create({ baseURL: API });
    expect(instance.getUri()).toBe(API);
    const sent = serve([json({ ok: true })]);
    await instance.post("/auth.test", "a=1");
    expect(sent[0]?.url).toBe(`${API}auth.test`);
  });
});

// Stand-in for axios, which Slack's Web API client (`@slack/web-api`'s WebClient, the one importer)
// uses for a single kind of call: `create`, a request interceptor, then `post`. In a Worker axios
// already sends through `fetch` (its adapter for runtimes without XMLHttpRequest); this does the same
// in a few lines rather than its 21 KiB gzip of adapters, form encoders and Node shims.
// wrangler.toml's [alias] points `axios` here; test/unit/channels/stand-ins/axios-fetch.test.ts holds
// it to what axios sends and answers.

type HeaderValue = string | number | boolean | null | undefined;
type HeaderSet = Record<string, HeaderValue>;

/** What WebClient passes to `create` and to `post` (and what its interceptor reads and writes). */
export interface RequestConfig {
  baseURL?: string;
  timeout?: number;
  maxRedirects?: number;
  headers?: HeaderSet;
  responseType?: string;
  adapter?: unknown;
  method?: string;
  url?: string;
  data?: unknown;
  [option: string]: unknown;
}

export interface StandInResponse {
  data: unknown;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  config: RequestConfig;
  request: Request;
}

type Interceptor = (config: RequestConfig) => RequestConfig | Promise<RequestConfig>;

/** An error carrying what axios's carries: `request` set when it was sent, which WebClient reads. */
class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly config: RequestConfig,
    readonly request: Request | null,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}

/** axios's defaults: `Accept` for every method, and one (empty) set per method. */
interface DefaultHeaders {
  common: HeaderSet;
  post: HeaderSet;
  [name: string]: HeaderSet | HeaderValue;
}

function defaultHeaders(): DefaultHeaders {
  const headers: DefaultHeaders = { common: { Accept: "application/json, text/plain, */*" }, post: {} };
  for (const method of ["delete", "get", "head", "put", "patch"]) headers[method] = {};
  return headers;
}

const METHOD_SETS = new Set(["common", "delete", "get", "head", "post", "put", "patch"]);

/** axios's `buildFullPath`: an absolute URL as it is, else joined to the base with one slash. */
function fullUrl(base: string | undefined, url: string): string {
  if (!base || /^([a-z][a-z\d+\-.]*:)?\/\//i.test(url)) return url;
  return url ? `${base.replace(/\/?\/$/, "")}/${url.replace(/^\/+/, "")}` : base;
}

/** axios's forced JSON parsing of a text answer: JSON when it parses, the text when not. */
function bodyOf(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function create(instanceConfig: RequestConfig = {}) {
  if (instanceConfig.adapter !== undefined)
    throw new Error("axios stand-in: a custom adapter is not supported");
  const headers: DefaultHeaders = Object.assign(defaultHeaders(), instanceConfig.headers);
  const defaults = { ...instanceConfig, headers };
  // axios runs the request interceptors last-registered first.
  const interceptors: Interceptor[] = [];

  async function post(
    url: string,
    data: unknown,
    requestConfig: RequestConfig = {},
  ): Promise<StandInResponse> {
    const merged: HeaderSet = {};
    for (const [name, value] of Object.entries(headers))
      if (!METHOD_SETS.has(name)) merged[name] = value as HeaderValue;
    let config: RequestConfig = {
      ...defaults,
      ...requestConfig,
      method: "post",
      url,
      data,
      headers: { ...headers.common, ...headers.post, ...merged, ...requestConfig.headers },
    };
    for (const interceptor of interceptors) config = await interceptor(config);
    const sent = new Headers();
    for (const [name, value] of Object.entries(config.headers ?? {})) {
      if (value !== undefined && value !== null && value !== false) sent.set(name, String(value));
    }
    if (!sent.has("content-type")) sent.set("content-type", "application/x-www-form-urlencoded");
    const timeout = config.timeout ?? 0;
    const signal = timeout > 0 ? AbortSignal.timeout(timeout) : undefined;
    let request: Request | null = null;
    try {
      request = new Request(fullUrl(config.baseURL, url), {
        method: "POST",
        headers: sent,
        body: config.data as BodyInit,
        ...(signal ? { signal } : {}),
        ...(config.maxRedirects === 0 ? { redirect: "manual" as const } : {}),
      });
      const response = await fetch(request);
      const body =
        config.responseType === "arraybuffer" ? await response.arrayBuffer() : bodyOf(await response.text());
      // WebClient takes every status (its `validateStatus` is always true) and reads the rest itself.
      return {
        data: body,
        status: response.status,
        statusText: response.statusText,
        headers: Object.fromEntries(response.headers),
        config,
        request,
      };
    } catch (error) {
      const cause = error as { name?: string; message?: string; code?: string };
      if (signal?.aborted) {
        throw new RequestError(`timeout of ${timeout}ms exceeded`, "ETIMEDOUT", config, request, error);
      }
      if (cause?.name === "TypeError" && /Load failed|fetch/i.test(cause.message ?? "")) {
        throw new RequestError("Network Error", "ERR_NETWORK", config, request, error);
      }
      throw new RequestError(cause?.message ?? String(error), cause?.code, config, request, error);
    }
  }

  return {
    defaults,
    interceptors: { request: { use: (fulfilled: Interceptor) => interceptors.unshift(fulfilled) } },
    post,
    getUri: () => fullUrl(defaults.baseURL, ""),
  };
}

export default { create };

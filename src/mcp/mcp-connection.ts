// One MCP server reached from a session: a Streamable HTTP connection opened for each operation and
// closed after it, resuming the stored `Mcp-Session-Id` so nothing about it lives only in memory.
import type { Client, ElicitResult } from "@modelcontextprotocol/client";
import type { McpServerConfig } from "./mcp-config";
import { ListedTool, type McpStateStore } from "./mcp-state";

type McpSdk = typeof import("./mcp-sdk");

let sdkLoading: Promise<McpSdk> | null = null;

/**
 * The MCP SDK, evaluated on first use: building its protocol schemas costs tens of milliseconds of
 * CPU, which a Worker that never reaches an MCP server should not pay at start-up.
 */
function loadSdk(): Promise<McpSdk> {
  sdkLoading ??= import("./mcp-sdk");
  return sdkLoading;
}

const CLIENT_INFO = { name: "parley", version: "0.1.0" };

/** After a turn cancel has answered a held elicitation `cancel`, how long the server may take to end its call. */
const CANCEL_GRACE_MS = 2_000;

/**
 * What a `tools/call` came back with: a result, a request for input first (2026-07-28), or a refusal
 * until the person has finished on the server's pages (-32042, URL elicitation required).
 */
export type McpCallOutcome =
  | { kind: "result"; result: unknown }
  | { kind: "input_required"; inputRequests: Record<string, unknown>; requestState: string | null }
  | { kind: "url_required"; elicitations: unknown[] };

export interface McpCallOptions {
  signal: AbortSignal;
  /** 2026-07-28 retry: the answers to the previous round's input requests, and its state untouched. */
  inputResponses?: Record<string, unknown>;
  requestState?: string | null;
  /** Answers a 2025-11-25 `elicitation/create` the server pushes while this call is open. */
  onElicit?: (params: unknown) => Promise<ElicitResult>;
}

/** A failure talking to a server, worded for the model and the person reading the transcript. */
export class McpError extends Error {
  constructor(
    message: string,
    /** The server no longer knows the tool: its cached list must be fetched again. */
    readonly toolGone = false,
  ) {
    super(message);
    this.name = "McpError";
  }
}

export class McpConnection {
  constructor(
    private readonly server: McpServerConfig,
    private readonly store: McpStateStore,
    private readonly fetchImpl: typeof fetch,
  ) {}

  /** Every tool the server offers (all pages), validated loosely: the server owns its schemas. */
  async listTools(signal: AbortSignal): Promise<ListedTool[]> {
    return this.session(signal, undefined, async (client, live) => {
      const { tools } = await client.listTools(undefined, {
        signal: live,
        timeout: this.server.timeoutMs,
        cacheMode: "bypass",
      });
      const listed: ListedTool[] = [];
      for (const tool of tools) {
        const parsed = ListedTool.safeParse(tool);
        if (parsed.success) listed.push(parsed.data);
      }
      return listed;
    });
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<McpCallOutcome> {
    return this.session(options.signal, options.onElicit, async (client, live, sdk) => {
      const params: Record<string, unknown> = { name, arguments: args };
      if (options.inputResponses) params.inputResponses = options.inputResponses;
      if (options.requestState) params.requestState = options.requestState;
      let result: unknown;
      try {
        result = await client.callTool(params as { name: string }, {
          signal: live,
          timeout: this.server.timeoutMs,
          allowInputRequired: true,
        });
      } catch (error) {
        const pages = urlElicitationsOf(sdk, error);
        if (pages) return { kind: "url_required", elicitations: pages };
        throw error;
      }
      const record = (result ?? {}) as Record<string, unknown>;
      if (record.resultType === "input_required") {
        return {
          kind: "input_required",
          inputRequests: (record.inputRequests as Record<string, unknown> | undefined) ?? {},
          requestState: typeof record.requestState === "string" ? record.requestState : null,
        };
      }
      return { kind: "result", result };
    });
  }

  /**
   * Runs `work` on a connected client. A stored server session is resumed without a handshake;
   * when the server no longer knows it (it restarted, or the session expired), a new one is started
   * and `work` runs again — the server refused the first attempt before doing anything.
   */
  private async session<T>(
    signal: AbortSignal,
    onElicit: McpCallOptions["onElicit"],
    work: (client: Client, live: AbortSignal, sdk: McpSdk) => Promise<T>,
  ): Promise<T> {
    const sdk = await loadSdk();
    const stored = this.store.get(this.server.name);
    const resuming = stored.sessionId !== null || stored.discover !== null;
    try {
      return await this.attempt(sdk, resuming, signal, onElicit, work);
    } catch (error) {
      if (!resuming || !isSessionGone(sdk, error) || signal.aborted) throw this.describe(sdk, error);
      this.store.forgetConnection(this.server.name);
      try {
        return await this.attempt(sdk, false, signal, onElicit, work);
      } catch (retryError) {
        throw this.describe(sdk, retryError);
      }
    }
  }

  private async attempt<T>(
    sdk: McpSdk,
    resuming: boolean,
    signal: AbortSignal,
    onElicit: McpCallOptions["onElicit"],
    work: (client: Client, live: AbortSignal, sdk: McpSdk) => Promise<T>,
  ): Promise<T> {
    const { name, url, headers, timeoutMs } = this.server;
    const stored = this.store.get(name);
    const client = new sdk.Client(CLIENT_INFO, {
      capabilities: { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: "auto" },
      // Input requests are stored and answered by people, not fulfilled inside one call.
      inputRequired: { autoFulfill: false },
    });
    client.setNotificationHandler("notifications/tools/list_changed", () => this.store.markStale(name));
    // The SDK leaves a request waiting for its timeout when the stream carrying its answer breaks;
    // a server that went away should fail the call now, so the loss aborts it.
    const lost = new AbortController();
    // A cancel while the server waits on a person answers its elicitation `cancel` (the spec's action
    // for a dismissed request) before the call is aborted, so the server hears why it ends.
    let asking = 0;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const forward = () => {
      if (asking === 0) lost.abort(signal.reason);
    };
    signal.addEventListener("abort", forward, { once: true });
    client.onerror = (error) => {
      if (/Maximum reconnection attempts|Failed to reconnect/.test(error.message)) {
        lost.abort(
          new McpError(`MCP server "${name}" closed the connection before answering (it may have stopped).`),
        );
      }
    };
    // Without a live card to show it on, an elicitation is declined rather than left hanging.
    client.setRequestHandler("elicitation/create", async (request) => {
      if (!onElicit) return { action: "decline" as const };
      asking += 1;
      try {
        return await onElicit(request.params);
      } finally {
        asking -= 1;
        if (signal.aborted && asking === 0 && !lost.signal.aborted) {
          grace = setTimeout(() => lost.abort(signal.reason), CANCEL_GRACE_MS);
        }
      }
    });
    const transport = new sdk.StreamableHTTPClientTransport(new URL(url), {
      fetch: (input, init) => this.fetchImpl(input, init),
      requestInit: { headers },
      sessionId: resuming ? (stored.sessionId ?? undefined) : undefined,
      protocolVersion: resuming ? (stored.protocolVersion ?? undefined) : undefined,
      // A dropped stream is the call's failure, reported now; the session retries the whole call.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 100,
        maxReconnectionDelay: 100,
        reconnectionDelayGrowFactor: 1,
      },
    });
    try {
      const prior = !resuming
        ? undefined
        : stored.discover !== null
          ? { kind: "modern" as const, discover: stored.discover as never }
          : { kind: "legacy" as const };
      await client.connect(transport, {
        signal: lost.signal,
        timeout: timeoutMs,
        ...(prior ? { prior } : {}),
      });
      if (!resuming) {
        this.store.saveConnection(name, {
          sessionId: transport.sessionId ?? null,
          protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
          discover: client.getDiscoverResult() ?? null,
        });
      }
      return await work(client, lost.signal, sdk);
    } catch (error) {
      if (lost.signal.reason instanceof McpError) throw lost.signal.reason;
      throw error;
    } finally {
      clearTimeout(grace);
      signal.removeEventListener("abort", forward);
      await client.close().catch(() => undefined);
    }
  }

  private describe(sdk: McpSdk, error: unknown): McpError {
    const { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } = sdk;
    if (error instanceof McpError) return error;
    const server = `MCP server "${this.server.name}"`;
    if (error instanceof SdkHttpError) {
      return new McpError(
        `${server} answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ""}.`,
      );
    }
    if (error instanceof SdkError) {
      switch (error.code) {
        case SdkErrorCode.RequestTimeout:
          return new McpError(`${server} did not answer within ${this.server.timeoutMs / 1000} s.`);
        case SdkErrorCode.ConnectionClosed:
          return new McpError(`${server} closed the connection before answering (it may have stopped).`);
        case SdkErrorCode.InvalidResult:
        case SdkErrorCode.UnsupportedResultType:
          return new McpError(`${server} sent a response that is not a valid MCP result: ${error.message}`);
        default:
          return new McpError(`${server} failed: ${error.message}`);
      }
    }
    if (error instanceof ProtocolError) {
      const gone = /unknown tool|tool \S+ not found/i.test(error.message);
      return new McpError(`${server} returned JSON-RPC error ${error.code}: ${error.message}`, gone);
    }
    if (error instanceof SyntaxError) {
      return new McpError(`${server} sent a response that is not valid JSON-RPC: ${error.message}`);
    }
    if (error instanceof TypeError) {
      return new McpError(`${server} is unreachable: ${error.message}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new McpError(`${server} failed: ${message}`);
  }
}

/** The pages a -32042 refusal asks the person to visit, or `null` for any other failure. */
function urlElicitationsOf(sdk: McpSdk, error: unknown): unknown[] | null {
  if (!(error instanceof sdk.ProtocolError) || error.code !== sdk.ProtocolErrorCode.UrlElicitationRequired)
    return null;
  const pages = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  return Array.isArray(pages) && pages.length > 0 ? pages : null;
}

/** The server does not know the session we resumed (404 per the spec; some servers answer 400). */
function isSessionGone(sdk: McpSdk, error: unknown): boolean {
  return error instanceof sdk.SdkHttpError && (error.status === 404 || error.status === 400);
}

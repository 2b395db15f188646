// HTTP calls the client makes outside the socket: creating a session and checking a share link.
import type {
  CreateSessionBody,
  CreateSessionResponse,
  ErrorBody,
  SessionSnapshot,
} from "../../src/protocol/index";

/** A non-2xx answer from the API, with the protocol error code when the body had one. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly resolution?: unknown,
  ) {
    super(message);
  }
}

interface RequestOptions {
  fetch?: typeof fetch;
  /** Bearer token for deployments that protect session creation. */
  gatewayToken?: string;
}

async function call<T>(url: string, init: RequestInit, fetchImpl: typeof fetch = fetch): Promise<T> {
  const response = await fetchImpl(url, init);
  const body = (await response.json().catch(() => null)) as { error?: ErrorBody } | null;
  if (!response.ok) {
    const error = body?.error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `HTTP ${response.status}`,
      error?.resolution,
    );
  }
  return body as T;
}

/** `POST /api/sessions`: a new session and the token that unlocks it. */
export function createSession(
  baseUrl: string,
  body: CreateSessionBody = {},
  options: RequestOptions = {},
): Promise<CreateSessionResponse> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.gatewayToken) headers.authorization = `Bearer ${options.gatewayToken}`;
  return call(
    new URL("/api/sessions", baseUrl).toString(),
    { method: "POST", headers, body: JSON.stringify(body) },
    options.fetch,
  );
}

/** `GET /api/sessions/:id`: proves the token works before a socket is opened. */
export function fetchSnapshot(
  baseUrl: string,
  sessionId: string,
  token: string,
  options: RequestOptions = {},
): Promise<SessionSnapshot> {
  const url = new URL(`/api/sessions/${encodeURIComponent(sessionId)}`, baseUrl).toString();
  return call(url, { headers: { authorization: `Bearer ${token}` } }, options.fetch);
}

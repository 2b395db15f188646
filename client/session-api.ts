// HTTP calls the client makes outside the socket: creating a session, checking a share link, and
// the owner's share links.
import type {
  ConnectionTicketResponse,
  CreateSessionBody,
  CreateSessionResponse,
  ErrorBody,
  MintedLink,
  MintLinkBody,
  SessionSnapshot,
  ShareLinkView,
} from "../src/protocol/index";

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

/** A success whose body could not be read: the connection closed mid-answer (a restart). */
export class UnreadAnswerError extends Error {
  override readonly name = "UnreadAnswerError";
}

const UNREAD = Symbol("unread");

/**
 * One API request: the parsed body, an ApiError naming the refusal, or an UnreadAnswerError. Every
 * success of the API answers JSON, so one cut short (Parley restarting mid-answer) is a failed
 * call, never an answer of `null` a caller would read as a card; the bridges' retries make it again.
 */
export async function call<T>(url: string, init: RequestInit, fetchImpl: typeof fetch = fetch): Promise<T> {
  const response = await fetchImpl(url, init);
  let body: unknown = UNREAD;
  try {
    body = await response.json();
  } catch {
    // Left UNREAD: the body broke off or is not JSON.
  }
  if (!response.ok) {
    const error = body === UNREAD ? undefined : (body as { error?: ErrorBody } | null)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `HTTP ${response.status}`,
      error?.resolution,
    );
  }
  if (body === UNREAD)
    throw new UnreadAnswerError(`Parley's answer to ${new URL(url).pathname} was cut short`);
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

/** `POST /api/sessions/:id/ws-ticket`: a single-use, 30-second ticket to put in a WebSocket URL instead of the token. */
export function requestTicket(
  baseUrl: string,
  sessionId: string,
  token: string,
  options: RequestOptions = {},
): Promise<ConnectionTicketResponse> {
  const url = new URL(`/api/sessions/${encodeURIComponent(sessionId)}/ws-ticket`, baseUrl).toString();
  return call(url, { method: "POST", headers: { authorization: `Bearer ${token}` } }, options.fetch);
}

function ownerHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, "content-type": "application/json" };
}

function linksUrl(baseUrl: string, sessionId: string, linkId?: string): string {
  const path = `/api/sessions/${encodeURIComponent(sessionId)}/links${linkId ? `/${linkId}` : ""}`;
  return new URL(path, baseUrl).toString();
}

/** `POST …/links` (owner): a new share link with a role, an optional lifetime and label. */
export function mintLink(
  baseUrl: string,
  route: { sessionId: string; token: string },
  body: MintLinkBody,
  options: RequestOptions = {},
): Promise<MintedLink> {
  const init = { method: "POST", headers: ownerHeaders(route.token), body: JSON.stringify(body) };
  return call(linksUrl(baseUrl, route.sessionId), init, options.fetch);
}

/** `GET …/links` (owner): every link minted for the session, revoked ones included. */
export async function listLinks(
  baseUrl: string,
  route: { sessionId: string; token: string },
  options: RequestOptions = {},
): Promise<ShareLinkView[]> {
  const init = { headers: ownerHeaders(route.token) };
  const body = await call<{ links: ShareLinkView[] }>(
    linksUrl(baseUrl, route.sessionId),
    init,
    options.fetch,
  );
  return body.links;
}

/** `DELETE …/links/:linkId` (owner): revokes a link; its open devices are disconnected at once. */
export function revokeLink(
  baseUrl: string,
  route: { sessionId: string; token: string },
  linkId: string,
  options: RequestOptions = {},
): Promise<ShareLinkView> {
  const init = { method: "DELETE", headers: ownerHeaders(route.token) };
  return call(linksUrl(baseUrl, route.sessionId, linkId), init, options.fetch);
}

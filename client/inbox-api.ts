// HTTP calls of a person's inbox (docs/inbox.md#the-inbox): its view, answering a card or giving it more time,
// opening a session, tickets for its stream, inbox links, push, and the person's agent keys. The credential is the gateway
// token, an inbox link's token, or none (Access signs the browser's requests, or a local deployment).
import type {
  AgentKeyView,
  ConnectionTicketResponse,
  InboxLinkView,
  InboxView,
  MintAgentKeyBody,
  MintedAgentKey,
  MintedInboxLink,
  MintInboxLinkBody,
  OpenedInboxSession,
  PushSubscriptionBody,
} from "../src/protocol/index";
import { call } from "./session-api";

export interface InboxTarget {
  /** `http(s)://host` the API is served from. */
  baseUrl: string;
  /** The gateway token or an inbox link's token; null when the deployment needs none. */
  credential: string | null;
  fetch?: typeof fetch;
}

function request<T>(target: InboxTarget, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (target.credential) headers.authorization = `Bearer ${target.credential}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return call<T>(new URL(`/api/inbox${path}`, target.baseUrl).toString(), init, target.fetch);
}

/** `GET /api/inbox`: the person's sessions and every open card, oldest deadline first. */
export function fetchInbox(target: InboxTarget): Promise<InboxView> {
  return request(target, "GET", "");
}

/** Answers a card from the inbox; its session keeps first-answer-wins (an ApiError 409 names the winner). */
export function respondFromInbox(
  target: InboxTarget,
  card: { sessionId: string; interactionId: string },
  response: unknown,
): Promise<{ ok: true; result: unknown }> {
  const path = `/cards/${encodeURIComponent(card.sessionId)}/${encodeURIComponent(card.interactionId)}/respond`;
  return request(target, "POST", path, { response });
}

/**
 * "Give me more time" on a card from the inbox: its session moves the deadline by the card's policy
 * step, up to its maximum (an ApiError 400 beyond it); the result holds the new deadline.
 */
export function extendFromInbox(
  target: InboxTarget,
  card: { sessionId: string; interactionId: string },
): Promise<{ ok: true; result: { interactionId: string; expiresAt: number; maxExpiresAt: number } }> {
  const path = `/cards/${encodeURIComponent(card.sessionId)}/${encodeURIComponent(card.interactionId)}/extend`;
  return request(target, "POST", path);
}

/** A link that opens one of the person's sessions (the whole conversation). */
export function openFromInbox(target: InboxTarget, sessionId: string): Promise<OpenedInboxSession> {
  return request(target, "POST", `/sessions/${encodeURIComponent(sessionId)}/open`);
}

/** A single-use, 30-second ticket for the inbox's WebSocket or event stream URL. */
export function requestInboxTicket(target: InboxTarget): Promise<ConnectionTicketResponse> {
  return request(target, "POST", "/ws-ticket");
}

export function mintInboxLink(target: InboxTarget, body: MintInboxLinkBody = {}): Promise<MintedInboxLink> {
  return request(target, "POST", "/links", body);
}

export async function listInboxLinks(target: InboxTarget): Promise<InboxLinkView[]> {
  return (await request<{ links: InboxLinkView[] }>(target, "GET", "/links")).links;
}

export function revokeInboxLink(target: InboxTarget, linkId: string): Promise<InboxLinkView> {
  return request(target, "DELETE", `/links/${encodeURIComponent(linkId)}`);
}

/** Pushes every card that opens in any of the person's sessions to this device. */
export function subscribeInboxPush(target: InboxTarget, body: PushSubscriptionBody): Promise<unknown> {
  return request(target, "POST", "/push-subscriptions", body);
}

export function unsubscribeInboxPush(target: InboxTarget, deviceId: string): Promise<unknown> {
  return request(target, "DELETE", `/push-subscriptions/${encodeURIComponent(deviceId)}`);
}

function agentKeysRequest<T>(target: InboxTarget, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (target.credential) headers.authorization = `Bearer ${target.credential}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return call<T>(new URL(`/api/agent-keys${path}`, target.baseUrl).toString(), init, target.fetch);
}

/** Mints an agent key for a bridge (the person only); the answer is the only time the key is shown. */
export function mintAgentKey(target: InboxTarget, body: MintAgentKeyBody): Promise<MintedAgentKey> {
  return agentKeysRequest(target, "POST", "", body);
}

export async function listAgentKeys(target: InboxTarget): Promise<AgentKeyView[]> {
  return (await agentKeysRequest<{ keys: AgentKeyView[] }>(target, "GET", "")).keys;
}

/** Revokes a key and every agent link it was given. */
export function revokeAgentKey(target: InboxTarget, keyId: string): Promise<AgentKeyView> {
  return agentKeysRequest(target, "DELETE", `/${encodeURIComponent(keyId)}`);
}

// HTTP calls for the person's chat accounts: which platforms are on, one-time link codes, the
// linked accounts and unlinking. Same credentials as the inbox's (client/inbox-api.ts).
import type { ChannelAccountView, ChatPlatform, LinkCodeResponse } from "../src/protocol/index";
import type { InboxTarget } from "./inbox-api";
import { call } from "./session-api";

function request<T>(target: InboxTarget, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (target.credential) headers.authorization = `Bearer ${target.credential}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return call<T>(new URL(`/api/channels${path}`, target.baseUrl).toString(), init, target.fetch);
}

/** `GET /api/channels`: the chat platforms this deployment has secrets for. */
export async function chatPlatforms(target: InboxTarget): Promise<ChatPlatform[]> {
  return (await request<{ platforms: ChatPlatform[] }>(target, "GET", "")).platforms;
}

export function mintLinkCode(target: InboxTarget, platform: ChatPlatform): Promise<LinkCodeResponse> {
  return request(target, "POST", "/link-codes", { platform });
}

export async function listChatLinks(target: InboxTarget): Promise<ChannelAccountView[]> {
  return (await request<{ links: ChannelAccountView[] }>(target, "GET", "/links")).links;
}

export function unlinkChat(target: InboxTarget, linkId: string): Promise<unknown> {
  return request(target, "DELETE", `/links/${encodeURIComponent(linkId)}`);
}

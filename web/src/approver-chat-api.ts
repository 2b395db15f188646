// HTTP calls of an invited approver's own chat accounts (docs/guide-approvers.md#invited-approvers):
// link codes, the linked accounts and unlinking, on their answering side for one inviter, with the
// approver's credential (or Access identity) — never the person's.
import { call } from "../../client/session-api";
import type { ChannelAccountView, ChatPlatform, LinkCodeResponse } from "../../src/protocol/index";
import type { ChatLinkCalls } from "./ui/account/chat-links";

export function approverChatCalls(credential: string | null, inviter: string): ChatLinkCalls {
  const request = <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = {};
    if (credential) headers.authorization = `Bearer ${credential}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    const base = `/api/people/answering/${encodeURIComponent(inviter)}/chat`;
    return call<T>(new URL(`${base}${path}`, location.origin).toString(), init);
  };
  return {
    platforms: async () => (await request<{ platforms: ChatPlatform[] }>("GET", "/links")).platforms,
    mint: (platform) => request<LinkCodeResponse>("POST", "/link-codes", { platform }),
    list: async () => (await request<{ links: ChannelAccountView[] }>("GET", "/links")).links,
    unlink: (linkId) => request("DELETE", `/links/${encodeURIComponent(linkId)}`),
  };
}

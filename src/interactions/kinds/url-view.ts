// The URL kind's view, zod-free: the page to visit (read the same way by the page's card and the
// terminal's prompt), and in a chat message the page as a link button, then I've finished or Decline.
import { type ChatView, field, fixedChoices } from "./chat-view";

export const urlChatView: ChatView = {
  ...fixedChoices(
    [
      { code: "uf", label: "I've finished", style: "primary", response: { action: "accept" } },
      { code: "ud", label: "Decline", style: "danger", response: { action: "decline" } },
    ],
    (request) => {
      const url = field(request, "url");
      return typeof url === "string" ? url : null;
    },
  ),
  link(request) {
    const page = pageOf(request);
    return page ? { label: "Open the page", url: page.url } : null;
  },
};

/** A URL request's page, read defensively: `null` unless it is an http(s) address the browser parses. */
export function pageOf(request: unknown): { message: string; url: string; host: string } | null {
  const { message, url } = (request ?? {}) as { message?: unknown; url?: unknown };
  if (typeof url !== "string" || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  return { message: typeof message === "string" ? message : "", url: parsed.href, host: parsed.host };
}

// The URL kind in a chat message: the page as a link button, then I've finished or Decline.
import { type ChatView, field, fixedChoices } from "./chat-view";

function pageOf(request: unknown): string | null {
  const url = field(request, "url");
  return typeof url === "string" && /^https?:\/\//.test(url) ? url : null;
}

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
    const url = pageOf(request);
    return url ? { label: "Open the page", url } : null;
  },
};

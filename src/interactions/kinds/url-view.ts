// The URL kind in a chat message: the page to visit, then I've finished or Decline.
import { type ChatView, field, fixedChoices } from "./chat-view";

export const urlChatView: ChatView = fixedChoices(
  [
    { code: "uf", label: "I've finished", style: "primary", response: { action: "accept" } },
    { code: "ud", label: "Decline", style: "danger", response: { action: "decline" } },
  ],
  (request) => {
    const url = field(request, "url");
    return typeof url === "string" ? url : null;
  },
);

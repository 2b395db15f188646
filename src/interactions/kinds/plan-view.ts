// The plan kind in a chat message: the plan and its three choices.
import { type ChatView, field, fixedChoices } from "./chat-view";

export const planChatView: ChatView = fixedChoices(
  [
    { code: "pa", label: "Approve, run edits", style: "primary", response: { choice: "accept_edits" } },
    { code: "pr", label: "Approve, review each", response: { choice: "review_each" } },
    { code: "pk", label: "Keep planning", response: { choice: "keep_planning" } },
  ],
  (request) => {
    const plan = field(request, "plan");
    return typeof plan === "string" ? plan : null;
  },
);

// The plan kind in a chat message: the plan, its three choices, and feedback by text.
import { type ChatView, field, fixedChoices } from "./chat-view";

export const planChatView: ChatView = fixedChoices(
  [
    { code: "pa", label: "Approve, run edits", style: "primary", response: { choice: "accept_edits" } },
    { code: "pr", label: "Approve, review each", response: { choice: "review_each" } },
    { code: "pk", label: "Keep planning", response: { choice: "keep_planning" } },
    {
      code: "pf",
      label: "Keep planning, with feedback",
      needsText: { prompt: "What should change in the plan? Reply to this message.", label: "Feedback" },
      response: (feedback: string) => ({ choice: "keep_planning", feedback }),
    },
  ],
  (request) => {
    const plan = field(request, "plan");
    return typeof plan === "string" ? plan : null;
  },
);

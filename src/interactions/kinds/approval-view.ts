// The approval kind in a chat message: the tool's input, Approve, Deny and Deny with reason.
import { type ChatView, field, fixedChoices } from "./chat-view";

export const approvalChatView: ChatView = {
  ...fixedChoices(
    [
      { code: "a", label: "Approve", style: "primary", response: { decision: "approve" } },
      { code: "d", label: "Deny", style: "danger", response: { decision: "deny" } },
      {
        code: "dr",
        label: "Deny with reason",
        needsText: { prompt: "Why deny it? Reply to this message with your reason.", label: "Reason" },
        response: (reason: string) => ({ decision: "deny", reason }),
      },
    ],
    (request) => JSON.stringify(field(request, "input") ?? null, null, 1),
  ),
  // A deadline never allows: the tool did not run.
  timedOut: "denied",
};

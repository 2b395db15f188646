// The approval kind in a chat message: the tool's input, Approve and Deny.
import { type ChatView, field, fixedChoices } from "./chat-view";

export const approvalChatView: ChatView = {
  ...fixedChoices(
    [
      { code: "a", label: "Approve", style: "primary", response: { decision: "approve" } },
      { code: "d", label: "Deny", style: "danger", response: { decision: "deny" } },
    ],
    (request) => JSON.stringify(field(request, "input") ?? null, null, 1),
  ),
  // A deadline never allows: the tool did not run.
  timedOut: "denied",
};

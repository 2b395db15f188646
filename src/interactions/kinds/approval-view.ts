// The approval kind in a chat message: the tool's input, Approve, Deny and Deny with reason.
import { type ChatChoice, type ChatView, field, fixedChoices } from "./chat-view";

const approveOrDeny = fixedChoices(
  [
    { code: "a", label: "Approve", style: "primary", response: { decision: "approve" } },
    { code: "d", label: "Deny", style: "danger", response: { decision: "deny" } },
  ],
  (request) => JSON.stringify(field(request, "input") ?? null, null, 1),
);

const DENY_WITH_REASON: ChatChoice = {
  code: "r",
  label: "Deny with reason",
  needsText: { prompt: "Why deny? The agent reads this.", label: "Deny with reason" },
};

export const approvalChatView: ChatView = {
  ...approveOrDeny,
  choices: (request) => [...approveOrDeny.choices(request), DENY_WITH_REASON],
  response: (request, code, text) =>
    code === DENY_WITH_REASON.code
      ? text
        ? { decision: "deny", reason: text }
        : null
      : approveOrDeny.response(request, code),
};

// The approval kind's view, zod-free: the request read defensively (the tool, its whole input, the
// risk, and an external agent's own claim about them) and, in a chat message, Approve, Deny and Deny with reason.
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

/** An approval's request as a device shows it; the agent's risk and description stay its claim. */
export interface ApprovalShown {
  toolName: string;
  input: unknown;
  risk: string | null;
  description: string | null;
  claim: { risk: string | null; description: string | null };
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** Reads an approval's request defensively; `toolName` names the tool when the request does not. */
export function approvalOf(request: unknown, toolName: string): ApprovalShown {
  const claim = field(request, "claim");
  return {
    toolName: text(field(request, "toolName")) ?? toolName,
    input: field(request, "input") ?? {},
    risk: text(field(request, "risk")),
    description: text(field(request, "description")),
    claim: { risk: text(field(claim, "risk")), description: text(field(claim, "description")) },
  };
}

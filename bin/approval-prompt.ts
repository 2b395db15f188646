// An approval answered in a terminal: approve, always allow, or deny with a reason.
import type { Card, CardPrompt, Reply, TerminalPrompt } from "./card-prompt";

export const approvalPrompt: TerminalPrompt = (card: Card) => new ApprovalPrompt(card);

class ApprovalPrompt implements CardPrompt {
  private denying = false;

  constructor(private readonly card: Card) {}

  start(): Reply {
    this.denying = false;
    const request = (this.card.request ?? {}) as {
      toolName?: unknown;
      description?: unknown;
      input?: unknown;
      risk?: unknown;
    };
    const tool = typeof request.toolName === "string" ? request.toolName : this.card.toolName;
    const what =
      typeof request.description === "string" ? request.description : JSON.stringify(request.input ?? {});
    const risk = typeof request.risk === "string" ? ` (${request.risk})` : "";
    return {
      kind: "ask",
      lines: [`! Approve ${tool}${risk}? ${what}`, "  a) approve   l) always allow this tool   d) deny"],
      prompt: "a/l/d› ",
    };
  }

  input(line: string): Reply {
    const text = line.trim();
    if (this.denying) {
      return {
        kind: "send",
        command: { type: "deny", toolCallId: this.card.toolCallId, ...(text ? { reason: text } : {}) },
      };
    }
    const choice = text.toLowerCase();
    if (choice === "a" || choice === "approve")
      return { kind: "send", command: { type: "approve", toolCallId: this.card.toolCallId } };
    if (choice === "l" || choice === "always")
      return { kind: "send", command: { type: "approve", toolCallId: this.card.toolCallId, remember: true } };
    if (choice === "d" || choice === "deny") {
      this.denying = true;
      return { kind: "ask", lines: [], prompt: "reason (Enter for none)› " };
    }
    return { kind: "ask", lines: ["Type a, l or d."], prompt: "a/l/d› " };
  }
}

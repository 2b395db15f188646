// An approval answered in a terminal: approve, always allow, allow … for (a grant), edit the
// arguments and approve, or deny with a reason.
import { isPlainToolName } from "../src/grants/call-identity";
import { approvalOf } from "../src/interactions/kinds/approval-view";
import { approvalsText, stillWaitingFor } from "../src/protocol/approval-words";
import type { Card, CardPrompt, Reply, TerminalPrompt } from "./card-prompt";
import { GrantSteps } from "./grant-steps";

export const approvalPrompt: TerminalPrompt = (card: Card) => new ApprovalPrompt(card);

class ApprovalPrompt implements CardPrompt {
  private denying = false;
  private editing = false;
  private granting: GrantSteps | null = null;

  constructor(private readonly card: Card) {}

  start(): Reply {
    this.denying = false;
    this.editing = false;
    this.granting = null;
    const {
      toolName: tool,
      input: args,
      risk: ownRisk,
      description,
      claim,
    } = approvalOf(this.card.request, this.card.toolName);
    // The whole input, never a cut: what is approved is exactly what runs.
    const input = JSON.stringify(args);
    // An external agent's risk and description are its own claim, and read as such.
    const described =
      description ?? (claim.description === null ? null : `the agent says: ${claim.description}`);
    const risk =
      ownRisk !== null ? ` (${ownRisk})` : claim.risk !== null ? ` (the agent says: ${claim.risk})` : "";
    return {
      kind: "ask",
      lines: [
        described === null ? `! Approve ${tool}${risk}? ${input}` : `! Approve ${tool}${risk}? ${described}`,
        ...(described === null ? [] : [`  input: ${input}`]),
        ...(this.card.approvals
          ? [
              `  ${approvalsText({ ...this.card.approvals, unreachable: undefined })}: this call needs ${this.card.approvals.needed} different people`,
              ...(this.card.approvals.unreachable
                ? [`  ${stillWaitingFor(this.card.approvals)} (or let its deadline pass)`]
                : []),
            ]
          : []),
        this.grantable()
          ? "  a) approve   l) always allow this tool   g) allow … for   e) edit, then approve   d) deny"
          : "  a) approve   l) always allow this tool   e) edit, then approve   d) deny",
      ],
      prompt: this.choicesPrompt(),
    };
  }

  /** The arguments as one line of JSON to retype; the server checks them against the tool's schema. */
  private edit(text: string): Reply {
    if (text === "") return this.start();
    let edited: unknown;
    try {
      edited = JSON.parse(text);
    } catch (error) {
      return { kind: "ask", lines: [`Not valid JSON: ${(error as Error).message}`], prompt: "arguments› " };
    }
    if (typeof edited !== "object" || edited === null || Array.isArray(edited)) {
      return { kind: "ask", lines: ["The arguments must be a JSON object ({ … })."], prompt: "arguments› " };
    }
    const updatedInput = edited as Record<string, unknown>;
    return { kind: "send", command: { type: "approve", toolCallId: this.card.toolCallId, updatedInput } };
  }

  input(line: string): Reply {
    const text = line.trim();
    if (this.editing) return this.edit(text);
    if (this.granting) return this.granting.input(text);
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
    if ((choice === "g" || choice === "grant") && this.grantable()) {
      this.granting = new GrantSteps(this.card);
      return this.granting.start();
    }
    if (choice === "d" || choice === "deny") {
      this.denying = true;
      return { kind: "ask", lines: [], prompt: "reason (Enter for none)› " };
    }
    if (choice === "e" || choice === "edit") {
      this.editing = true;
      const { input } = approvalOf(this.card.request, this.card.toolName);
      return {
        kind: "ask",
        lines: [
          "Edit the arguments as one line of JSON (Enter alone goes back):",
          `  ${JSON.stringify(input)}`,
        ],
        prompt: "arguments› ",
      };
    }
    const choices = this.grantable() ? "a, l, g, e or d" : "a, l, e or d";
    return { kind: "ask", lines: [`Type ${choices}.`], prompt: this.choicesPrompt() };
  }

  /** A grant names a tool by a plain name: a call whose tool is not known (`acp:execute`) offers none. */
  private grantable(): boolean {
    return isPlainToolName(approvalOf(this.card.request, this.card.toolName).toolName);
  }

  private choicesPrompt(): string {
    return this.grantable() ? "a/l/g/e/d› " : "a/l/e/d› ";
  }
}

// An approval answered in a terminal: approve, always allow, allow … for (a grant), edit the
// arguments and approve, or deny with a reason. A file edit shows as a diff, an MCP call as its
// arguments one per line; anything else as its JSON.
import { assessmentLine } from "../src/assessment/assessment-words";
import { callDisplay } from "../src/display/call-display";
import { callTextLines, TEXT_FOLD_CHARS, type TextLine } from "../src/display/call-text";
import { isPlainToolName } from "../src/grants/call-identity";
import { approvalOf } from "../src/interactions/kinds/approval-view";
import { approvalsText, stillWaitingFor } from "../src/protocol/cards/approval-words";
import type { Card, CardPrompt, Reply, TerminalPrompt } from "./card-prompt";
import { GrantSteps } from "./grant-steps";
import type { TerminalLine } from "./terminal-paint";

export const approvalPrompt: TerminalPrompt = (card: Card) => new ApprovalPrompt(card);

/** Diff lines keep their tone for the device to colour; the rest are plain text. */
function toned(line: TextLine): TerminalLine {
  return line.kind === "added" || line.kind === "removed" || line.kind === "hunk" || line.kind === "heading"
    ? { text: line.text, tone: line.kind }
    : line.text;
}

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
      assessment,
    } = approvalOf(this.card.request, this.card.toolName);
    // The whole input, never a cut: what is approved is exactly what runs. A diff or a written file
    // shows whole too; argument values too long for a line say how much is cut, and "e" shows all.
    const display = callDisplay({ toolName: tool, input: args, request: this.card.request });
    const shown = callTextLines(display);
    const cut =
      display.kind === "arguments" && display.rows.some((row) => row.value.length > TEXT_FOLD_CHARS)
        ? ["  (a long value is cut here: e shows the whole input)"]
        : [];
    const input = shown === null ? JSON.stringify(args) : null;
    // An external agent's risk and description are its own claim, and read as such.
    const described =
      description ?? (claim.description === null ? null : `the agent says: ${claim.description}`);
    const risk =
      ownRisk !== null ? ` (${ownRisk})` : claim.risk !== null ? ` (the agent says: ${claim.risk})` : "";
    // Parley's own assessment, in the words every device uses: a high call's leads the card.
    const assessed = assessment === null ? null : assessmentLine(assessment);
    const high = assessment?.level === "high";
    return {
      kind: "ask",
      lines: [
        ...(high && assessed !== null ? [`!! ${assessed}`] : []),
        described === null && input !== null
          ? `! Approve ${tool}${risk}? ${input}`
          : `! Approve ${tool}${risk}?${described === null ? "" : ` ${described}`}`,
        ...(!high && assessed !== null ? [`  ${assessed}`] : []),
        ...(described === null || input === null ? [] : [`  input: ${input}`]),
        ...(shown === null ? [] : shown.map(toned)),
        ...cut,
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

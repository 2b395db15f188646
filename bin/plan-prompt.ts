// A plan answered in a terminal, with the page's three choices: approve and accept edits (the owner
// only, as the server rules), approve and review each action, or keep planning with feedback.

import {
  PLAN_OPTIONS,
  type PlanOption,
  planOf,
  planReachesBeyondCard,
  planResponse,
} from "../src/interactions/kinds/plan-view";
import { mayDecideBeyondCard } from "../src/protocol/access/owner-decisions";
import type { Card, CardPrompt, Reply, TerminalPrompt } from "./card-prompt";

export const planPrompt: TerminalPrompt = (card: Card) => new PlanPrompt(card);

class PlanPrompt implements CardPrompt {
  private keepingOn = false;
  private readonly options: readonly PlanOption[];

  constructor(private readonly card: Card) {
    const role = card.role ?? "owner";
    this.options = PLAN_OPTIONS.filter((option) =>
      mayDecideBeyondCard(role, planReachesBeyondCard(planResponse(option.choice))),
    );
  }

  start(): Reply {
    this.keepingOn = false;
    const plan = planOf(this.card.request);
    return {
      kind: "ask",
      lines: [
        "☰ Ready to carry out this plan?",
        ...(plan ? plan.split("\n").map((line) => `  ${line}`) : ["  (the agent sent no plan text)"]),
        `  ${this.options.map((option) => `${option.key}) ${option.label}`).join("   ")}`,
      ],
      prompt: this.promptText(),
    };
  }

  input(line: string): Reply {
    const text = line.trim();
    if (this.keepingOn) return this.send(planResponse("keep_planning", text));
    const option = this.options.find((candidate) => candidate.key === text);
    if (!option) return { kind: "ask", lines: [`Type ${this.keys(" or ")}.`], prompt: this.promptText() };
    if (option.choice !== "keep_planning") return this.send(planResponse(option.choice));
    this.keepingOn = true;
    return { kind: "ask", lines: ["What should change? (Enter for no feedback)"], prompt: "feedback› " };
  }

  private send(response: object): Reply {
    const target = this.card.interactionId
      ? { interactionId: this.card.interactionId }
      : { toolCallId: this.card.toolCallId };
    return { kind: "send", command: { type: "respond", ...target, response } };
  }

  private keys(joiner: string): string {
    const keys = this.options.map((option) => option.key);
    return `${keys.slice(0, -1).join(", ")}${joiner}${keys.at(-1)}`;
  }

  private promptText(): string {
    return `${this.options.map((option) => option.key).join("/")}› `;
  }
}

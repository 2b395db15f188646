// "Allow … for" in a terminal: the rule (the narrowest pre-filled, or the agent's suggestion; Enter
// keeps it), then where (this session, this agent, everywhere), then how long; the answer approves
// the card and makes the grant.
import { describeRule, parseRule } from "../src/grants/grant-rule";
import { narrowestRule } from "../src/grants/narrowest-rule";
import type { Card, Reply } from "./card-prompt";

const SCOPES: Record<string, "session" | "agent" | "all"> = { s: "session", a: "agent", e: "all" };
const EXPIRIES: Record<string, number | null> = { h: 3_600, d: 86_400, w: 604_800, r: null };

export class GrantSteps {
  private step: "rule" | "scope" | "expiry" = "rule";
  private rule: string;
  private scope: "session" | "agent" | "all" = "session";

  constructor(private readonly card: Card) {
    const request = (card.request ?? {}) as { toolName?: unknown; input?: unknown; suggestedRules?: unknown };
    const tool = typeof request.toolName === "string" ? request.toolName : card.toolName;
    const suggested = Array.isArray(request.suggestedRules) ? request.suggestedRules : [];
    this.rule = typeof suggested[0] === "string" ? suggested[0] : narrowestRule(tool, request.input);
  }

  start(): Reply {
    this.step = "rule";
    return this.askRule([`Allow calls like this one without asking. Rule (Enter keeps it): ${this.rule}`]);
  }

  input(text: string): Reply {
    if (this.step === "rule") {
      const rule = text === "" ? this.rule : text;
      const parsed = parseRule(rule);
      if (!parsed.ok) return this.askRule([parsed.message]);
      this.rule = rule;
      this.step = "scope";
      return {
        kind: "ask",
        lines: [
          `  matches ${describeRule(parsed.rule)}`,
          "  for s) this session   a) this agent   e) everywhere",
        ],
        prompt: "s/a/e› ",
      };
    }
    if (this.step === "scope") {
      const scope = SCOPES[text.toLowerCase()];
      if (!scope) return { kind: "ask", lines: ["Type s, a or e."], prompt: "s/a/e› " };
      this.scope = scope;
      this.step = "expiry";
      return {
        kind: "ask",
        lines: ["  until h) 1 hour   d) 1 day   w) 7 days   r) revoked"],
        prompt: "h/d/w/r› ",
      };
    }
    const key = text.toLowerCase();
    if (!(key in EXPIRIES)) return { kind: "ask", lines: ["Type h, d, w or r."], prompt: "h/d/w/r› " };
    const seconds = EXPIRIES[key];
    const grant = {
      rule: this.rule.trim(),
      scope: this.scope,
      ...(seconds ? { expiresInSeconds: seconds } : {}),
    };
    return {
      kind: "send",
      command: {
        type: "respond",
        interactionId: this.card.interactionId ?? this.card.toolCallId,
        response: { decision: "approve", grant },
      },
    };
  }

  private askRule(lines: string[]): Reply {
    return { kind: "ask", lines, prompt: "rule› " };
  }
}

// "Allow … for" in a terminal: the rule (the narrowest pre-filled, or the agent's suggestion; Enter
// keeps it), then where (this session, this agent, everywhere: the wider two for the owner only, as
// the server rules), then how long; the answer approves the card and makes the grant.
import { describeRule, parseRule } from "../src/grants/grant-rule";
import { narrowestRule } from "../src/grants/narrowest-rule";
import { approvalOf, approvalReachesBeyondCard } from "../src/interactions/kinds/approval-view";
import { mayDecideBeyondCard } from "../src/protocol/access/owner-decisions";
import type { Card, Reply } from "./card-prompt";

type Scope = "session" | "agent" | "all";
const SCOPES: Record<string, Scope> = { s: "session", a: "agent", e: "all" };
const SCOPE_WORDS: Record<Scope, string> = {
  session: "this session",
  agent: "this agent",
  all: "everywhere",
};
const EXPIRIES: Record<string, number | null> = { h: 3_600, d: 86_400, w: 604_800, r: null };

export class GrantSteps {
  private step: "rule" | "scope" | "expiry" = "rule";
  private rule: string;
  private scope: Scope = "session";
  /** The scopes this terminal's role may grant, by key: a link that is not the owner's, this session only. */
  private readonly scopes: [string, Scope][];

  constructor(private readonly card: Card) {
    const shown = approvalOf(card.request, card.toolName);
    this.rule = shown.suggestedRules[0] ?? narrowestRule(shown.toolName, shown.input);
    const role = card.role ?? "owner";
    this.scopes = Object.entries(SCOPES).filter(([, scope]) =>
      mayDecideBeyondCard(role, approvalReachesBeyondCard({ decision: "approve", grant: { scope } })),
    );
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
      const matches = `  matches ${describeRule(parsed.rule)}`;
      if (this.scopes.length === 1) {
        // Nothing to choose: the link may grant for this session only.
        this.scope = "session";
        return this.askExpiry([matches, "  for this session (only the session's owner may grant wider)"]);
      }
      this.step = "scope";
      const offered = this.scopes.map(([key, scope]) => `${key}) ${SCOPE_WORDS[scope]}`).join("   ");
      return { kind: "ask", lines: [matches, `  for ${offered}`], prompt: this.scopePrompt() };
    }
    if (this.step === "scope") {
      const scope = this.scopes.find(([key]) => key === text.toLowerCase())?.[1];
      if (!scope) return { kind: "ask", lines: ["Type s, a or e."], prompt: this.scopePrompt() };
      this.scope = scope;
      return this.askExpiry([]);
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

  private scopePrompt(): string {
    return `${this.scopes.map(([key]) => key).join("/")}› `;
  }

  private askExpiry(lines: string[]): Reply {
    this.step = "expiry";
    return {
      kind: "ask",
      lines: [...lines, "  until h) 1 hour   d) 1 day   w) 7 days   r) revoked"],
      prompt: "h/d/w/r› ",
    };
  }

  private askRule(lines: string[]): Reply {
    return { kind: "ask", lines, prompt: "rule› " };
  }
}

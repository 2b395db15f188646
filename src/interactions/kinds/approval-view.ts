// The approval kind's view, zod-free: the request read defensively (the tool, its whole input, the
// risk, and an external agent's own claim about them), and in a chat message Approve, Deny, Deny
// with reason, and Allow… — the rule the page would pre-fill, shown with what it matches, for this
// session, this agent or everywhere, for an hour or a day (chat's longest).
import type { Assessment } from "../../assessment/assessment";
import { assessmentOf } from "../../assessment/assessment-words";
import { isPlainToolName } from "../../grants/call-identity";
import { describeRule, parseRule } from "../../grants/grant-rule";
import { prefilledRule } from "../../grants/narrowest-rule";
import { type ChatChoice, type ChatView, field, fixedChoices } from "./chat-view";

const answers = fixedChoices(
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
);

const ALLOW = "al";
const BACK = "gb";
const SCOPES = {
  s: ["session", "This session"],
  a: ["agent", "This agent"],
  e: ["all", "Everywhere"],
} as const;
const DURATIONS = { "1": [3_600, "1 h"], "24": [86_400, "24 h"] } as const;

/** The grant's rule and what it matches; null when the call offers none (`grantOffered`). */
function allowRule(request: unknown): { rule: string; matches: string } | null {
  const toolName = field(request, "toolName");
  // A call whose tool is not known (an ACP `acp:<kind>`) offers no grant: its kind is too coarse.
  if (typeof toolName !== "string" || !isPlainToolName(toolName)) return null;
  if (!grantOffered(request)) return null;
  const suggested = field(request, "suggestedRules");
  const rule = prefilledRule(toolName, field(request, "input"), Array.isArray(suggested) ? suggested : []);
  const parsed = parseRule(rule);
  return parsed.ok ? { rule, matches: describeRule(parsed.rule) } : null;
}

function allowing(progress: unknown): boolean {
  return (progress as { allow?: boolean } | null)?.allow === true;
}

function grantChoices(): ChatChoice[] {
  const choices: ChatChoice[] = [];
  for (const [scope, [, scopeLabel]] of Object.entries(SCOPES))
    for (const [hours, [, durationLabel]] of Object.entries(DURATIONS))
      choices.push({ code: `g${scope}${hours}`, label: `${scopeLabel} · ${durationLabel}` });
  choices.push({ code: BACK, label: "Back" });
  return choices;
}

export const approvalChatView: ChatView = {
  detail(request, progress) {
    const input = answers.detail(request, null);
    const allow = allowing(progress) ? allowRule(request) : null;
    if (!allow) return input;
    return `${input}\n\nAllow ${allow.rule} (matches ${allow.matches}) and approve this call. Where, and for how long? From chat, at most 24 hours.`;
  },
  choices(request, progress) {
    if (allowing(progress) && allowRule(request)) return grantChoices();
    const choices = answers.choices(request, null);
    if (allowRule(request)) choices.push({ code: ALLOW, label: "Allow…" });
    return choices;
  },
  press(request, progress, code, text) {
    const allow = allowRule(request);
    if (allowing(progress) && allow) {
      if (code === BACK) return { progress: null };
      const match = /^g([sae])(1|24)$/.exec(code);
      if (!match) return null;
      const [scope] = SCOPES[match[1] as keyof typeof SCOPES];
      const [seconds] = DURATIONS[match[2] as keyof typeof DURATIONS];
      return {
        response: { decision: "approve", grant: { rule: allow.rule, scope, expiresInSeconds: seconds } },
      };
    }
    if (code === ALLOW) return allow ? { progress: { allow: true } } : null;
    return answers.press(request, null, code, text);
  },
  // A deadline never allows: the tool did not run.
  timedOut: "denied",
};

/** An approval's request as a device shows it; the agent's risk and description stay its claim. */
export interface ApprovalShown {
  toolName: string;
  input: unknown;
  risk: string | null;
  description: string | null;
  claim: { risk: string | null; description: string | null };
  /** Parley's own assessment of the call; null on a card stored before there was one. */
  assessment: Assessment | null;
  /** The rules the agent suggests for a grant, in its order; the strings only. */
  suggestedRules: string[];
  /** The grant Parley computed a device may offer, and whether it covers the call; null on older cards. */
  grantOffer: { rule: string; covers: boolean } | null;
}

/**
 * Whether a device offers a grant beside this approval: only when Parley found, where the card
 * opened, that the pre-filled rule covers the call, and never for a call it reads as high-risk —
 * a standing yes to downloading and running code, or to reading keys, is not one tap away.
 */
export function grantOffered(request: unknown): boolean {
  const toolName = field(request, "toolName");
  if (typeof toolName !== "string" || !isPlainToolName(toolName)) return false;
  return grantOfferOf(request)?.covers === true && assessmentOf(request)?.level !== "high";
}

function grantOfferOf(request: unknown): { rule: string; covers: boolean } | null {
  const offer = field(request, "grantOffer");
  const rule = field(offer, "rule");
  const covers = field(offer, "covers");
  return typeof rule === "string" && typeof covers === "boolean" ? { rule, covers } : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/**
 * Reads an approval's request defensively; `toolName` and `input` are the tool call's own, shown
 * when the request does not name them.
 */
export function approvalOf(request: unknown, toolName: string, input: unknown = {}): ApprovalShown {
  const claim = field(request, "claim");
  const suggested = field(request, "suggestedRules");
  return {
    toolName: text(field(request, "toolName")) ?? toolName,
    input: field(request, "input") ?? input ?? {},
    risk: text(field(request, "risk")),
    description: text(field(request, "description")),
    claim: { risk: text(field(claim, "risk")), description: text(field(claim, "description")) },
    assessment: assessmentOf(request),
    suggestedRules: Array.isArray(suggested)
      ? suggested.filter((rule): rule is string => typeof rule === "string")
      : [],
    grantOffer: grantOfferOf(request),
  };
}

/**
 * An outside agent's own words about its call, marked as its claim ("The agent says: risk execute ·
 * Runs the tests"): a device never shows them as Parley's risk chip or summary. Null when the card
 * carries no claim.
 */
export function claimText(claim: ApprovalShown["claim"]): string | null {
  const parts = [
    claim.risk === null ? null : `risk ${claim.risk}`,
    claim.description === null || claim.description.trim() === "" ? null : claim.description,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : `The agent says: ${parts.join(" · ")}`;
}

/**
 * True when an answer changes the session beyond its card: "Always allow" or "Always deny"
 * (`remember`), or a grant for more than this session (the person's other sessions, or the agent's).
 * A grant for this session stays within what answering one card may do. Reads any value; never throws.
 */
export function approvalReachesBeyondCard(response: unknown): boolean {
  if (field(response, "remember") === true) return true;
  const grant = field(response, "grant");
  return typeof grant === "object" && grant !== null && field(grant, "scope") !== "session";
}

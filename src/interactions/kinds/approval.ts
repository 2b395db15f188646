// The `approval` kind: a person approves or denies one tool call that the permission policy
// decided to ask about. It has no tool of its own; the policy opens it for any tool.
import * as z from "zod";
import { Assessment } from "../../assessment/assessment";
import { assessmentLine } from "../../assessment/assessment-words";
import { MAX_TITLE_CHARS, MAX_TITLED_ARGUMENTS } from "../../display/schema-titles";
import { isPlainToolName } from "../../grants/call-identity";
import { MAX_RULE_CHARS } from "../../grants/grant-rule";
import { CardGrant } from "../../protocol/grants/grants";
import { lazySchema } from "../../protocol/lazy-schema";
import { MAX_TEXT_FIELD_CHARS } from "../../protocol/limits";
import { describeZodError } from "../../protocol/wire/errors";
import type { ToolRisk } from "../../tools/define-tool";
import { defineInteraction } from "../define-interaction";
import { describeDuration } from "../describe-duration";
import { AcpToolDetails, acpRefusal } from "./acp-details";
import { approvalReachesBeyondCard } from "./approval-view";

const RISKS = ["read", "edit", "network", "execute"] as const satisfies readonly ToolRisk[];

const Risk = lazySchema(() => z.enum(RISKS));

/**
 * What an agent that runs elsewhere says about its own call: shown as its claim, never as Parley's
 * assessment (src/agent/external-interaction.ts moves an external card's `risk` and `description` here).
 */
export const AgentClaim = lazySchema(() =>
  z.object({
    risk: Risk.optional(),
    description: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
  }),
);
export type AgentClaim = z.infer<typeof AgentClaim>;

/** The tool call awaiting a decision, as devices render it. */
export const ApprovalRequest = lazySchema(() =>
  z.object({
    toolName: z.string().min(1).max(128),
    /** The tool input exactly as the model gave it. */
    input: z.unknown(),
    /** Parley's own risk class for the tool; absent on an external agent's card, which has only a claim. */
    risk: Risk.optional(),
    /** A one-line summary of what the call would do, when the policy can say. */
    description: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
    /** What an external agent says about the call (its risk, its description). */
    claim: AgentClaim.optional(),
    /**
     * Parley's own reading of what the call will do (src/assessment), computed where the card opens
     * and stored with it; never taken from the agent. Absent only on cards stored before it existed.
     */
    assessment: Assessment.optional(),
    /** For an MCP tool: its server, its own name, title and annotations (the server's claims). */
    mcp: z
      .object({
        server: z.string().max(64),
        tool: z.string().max(128),
        title: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
        annotations: z.record(z.string(), z.unknown()).optional(),
        /** Argument name → its title from the tool's input schema (src/display/schema-titles.ts). */
        fields: z
          .record(z.string().max(128), z.string().max(MAX_TITLE_CHARS))
          .refine((fields) => Object.keys(fields).length <= MAX_TITLED_ARGUMENTS, {
            error: `mcp.fields must title at most ${MAX_TITLED_ARGUMENTS} arguments`,
          })
          .optional(),
      })
      .optional(),
    /** For a request from an Agent Client Protocol agent (`parley acp`): what ACP says about it. */
    acp: AcpToolDetails.optional(),
    /** Rules the agent itself suggests for "always allow" (Claude Code's), offered as a grant's rule. */
    suggestedRules: z.array(z.string().max(MAX_RULE_CHARS)).max(10).optional(),
    /**
     * The grant a device may offer: the pre-filled rule and whether it covers this call, computed by
     * Parley where the card opens (src/grants/grant-offer.ts), never taken from the agent. A device
     * offers no grant when `covers` is false.
     */
    grantOffer: z.object({ rule: z.string(), covers: z.boolean() }).optional(),
  }),
);
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** The tool input a person edited before approving: an object, like every tool input. */
export const UpdatedInput = lazySchema(() =>
  z.record(z.string(), z.unknown(), {
    error: "updatedInput must be a JSON object",
  }),
);

/** What a device sends. A blank deny reason counts as no reason. */
export const RawApprovalDecision = lazySchema(() =>
  z.discriminatedUnion(
    "decision",
    [
      z.strictObject({
        decision: z.literal("approve"),
        remember: z.boolean().optional(),
        /** Approve this input instead of the one asked about (edit-then-approve). */
        updatedInput: UpdatedInput.optional(),
        /** Also allow calls like it from now on: a grant of the person's, kept by their inbox. */
        grant: CardGrant.optional(),
      }),
      z.strictObject({
        decision: z.literal("deny"),
        reason: z
          .string()
          .trim()
          .max(MAX_TEXT_FIELD_CHARS, `reason must be at most ${MAX_TEXT_FIELD_CHARS} characters`)
          .optional(),
        /** Also stop the turn rather than let the model continue with the denial (reject and stop). */
        stop: z.boolean().optional(),
        /** Always deny this call: only where the agent offers it (an ACP agent's `reject_always`). */
        remember: z.boolean().optional(),
      }),
    ],
    { error: 'must be "approve" or "deny"' },
  ),
);

/**
 * The stored decision; `remember` asks to always allow this tool for the rest of the session;
 * `updatedInput` is the input the person approved instead of the one asked about.
 */
export const ApprovalResponse = lazySchema(() =>
  z.discriminatedUnion("decision", [
    z.object({
      decision: z.literal("approve"),
      remember: z.boolean(),
      updatedInput: UpdatedInput.optional(),
      grant: CardGrant.optional(),
    }),
    z.object({
      decision: z.literal("deny"),
      reason: z.string().nullable(),
      stop: z.literal(true).optional(),
      remember: z.literal(true).optional(),
    }),
  ]),
);
export type ApprovalResponse = z.infer<typeof ApprovalResponse>;

const GRANT_SCOPE_WORDS = { session: "this session", agent: "this agent", all: "every session" } as const;

/** A person's approve or deny for a tool call. */
export const approvalInteraction = defineInteraction<ApprovalRequest, ApprovalResponse>({
  kind: "approval",
  // Parley's assessment is the card's line on every device, the level first for a high call; the
  // agent's own words follow it, marked as its claim.
  summary: ({ toolName, description, claim, assessment }) => {
    const says = claim?.description ? `The agent says: ${claim.description}` : null;
    if (!assessment)
      return {
        title: `Approve ${toolName}?`,
        line: description ?? says ?? `The agent wants to run ${toolName}`,
      };
    return {
      title: assessment.level === "high" ? `High risk: approve ${toolName}?` : `Approve ${toolName}?`,
      line: says ? `${assessmentLine(assessment)} · ${says}` : assessmentLine(assessment),
    };
  },
  request: ApprovalRequest,
  fromAgent: agentClaims,
  editedInput(response) {
    if (response.decision !== "approve") return null;
    const edited: unknown = response.updatedInput;
    return typeof edited === "object" && edited !== null && !Array.isArray(edited)
      ? (edited as Record<string, unknown>)
      : null;
  },
  beyondCard: approvalReachesBeyondCard,
  // Never `remember` nor a grant: "Approve all" stays within the cards it decides.
  batchResponse: ({ decision, reason, stop }) =>
    decision === "approve"
      ? { decision: "approve" }
      : { decision: "deny", ...(reason !== undefined ? { reason } : {}), ...(stop ? { stop: true } : {}) },
  parseResponse(request, raw) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      return {
        ok: false,
        message:
          'Expected { decision: "approve", remember?, updatedInput? } or { decision: "deny", reason?, stop? }',
      };
    }
    const parsed = RawApprovalDecision.safeParse(raw);
    if (!parsed.success) return { ok: false, message: describeZodError(parsed.error) };
    const decision = parsed.data;
    const refusal = request.acp ? acpRefusal(request.acp, decision) : null;
    if (refusal) return { ok: false, message: refusal };
    if (decision.decision === "approve" && decision.grant && !isPlainToolName(request.toolName))
      return {
        ok: false,
        message: `no grant can be made from this card: its tool is not known (${request.toolName}); approve or deny this call alone`,
      };
    if (decision.decision === "deny" && decision.remember && !request.acp)
      return { ok: false, message: "always deny is offered only for an ACP agent's requests" };
    if (decision.decision === "approve") {
      const edited = decision.updatedInput ? { updatedInput: decision.updatedInput } : {};
      const grant = decision.grant ? { grant: decision.grant } : {};
      return {
        ok: true,
        response: { decision: "approve", remember: decision.remember ?? false, ...edited, ...grant },
      };
    }
    const reason = decision.reason || null;
    const always = decision.remember ? { remember: true as const } : {};
    return {
      ok: true,
      response: decision.stop
        ? { decision: "deny", reason, stop: true, ...always }
        : { decision: "deny", reason, ...always },
    };
  },
  outcome: (_request, response) => (response.decision === "approve" ? "approved" : "denied"),
  receipt(_outcome, response) {
    if (response?.decision === "approve") {
      const always = response.grant
        ? ` · allowed ${response.grant.rule} for ${GRANT_SCOPE_WORDS[response.grant.scope]}`
        : response.remember
          ? " · always allowed this session"
          : "";
      return `Approved${always}${response.updatedInput ? " · with edited arguments" : ""}`;
    }
    if (response?.decision === "deny")
      return `Denied${response.reason ? `: “${response.reason}”` : ""}${response.stop ? " · turn stopped" : ""}${response.remember ? " · always" : ""}`;
    return null;
  },
  toResult(_request, response) {
    if (response.decision === "approve") return null;
    const reason = response.reason === null ? "" : `. Reason: ${response.reason}`;
    const stopped = response.stop ? " and stopped the turn" : "";
    return { content: `User denied tool execution${stopped}${reason}`, isError: true };
  },
  remember: (_request, response) => response.decision === "approve" && response.remember,
  stopsTurn: (_request, response) => response.decision === "deny" && response.stop === true,
  onTimeout: (_request, { timeoutMs }) => ({
    content: `Tool approval timed out after ${describeDuration(timeoutMs)}`,
    isError: true,
  }),
  onCancel: (request) => ({
    content: `User cancelled the turn before approving ${request.toolName}; the tool was not run`,
    isError: true,
  }),
});

/**
 * An approval's `risk` and `description` are Parley's words on its own cards; from an agent that
 * runs elsewhere they are its claim, kept as `claim` and shown as such. Its `mcp` origin names one
 * of the deployment's MCP servers, which only Parley may do, so it is dropped; so are an
 * `assessment` and a `grantOffer`, which only Parley computes.
 */
function agentClaims(request: unknown): unknown {
  if (typeof request !== "object" || request === null || Array.isArray(request)) return request;
  const {
    risk,
    description,
    mcp: _mcp,
    claim: _claim,
    assessment: _assessment,
    grantOffer: _grantOffer,
    ...rest
  } = request as Record<string, unknown>;
  const claim = {
    ...(risk !== undefined ? { risk } : {}),
    ...(description !== undefined ? { description } : {}),
  };
  return Object.keys(claim).length > 0 ? { ...rest, claim } : rest;
}

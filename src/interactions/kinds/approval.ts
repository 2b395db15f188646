// The `approval` kind: a person approves or denies one tool call that the permission policy
// decided to ask about. It has no tool of its own; the policy opens it for any tool.
import * as z from "zod";
import { MAX_RULE_CHARS } from "../../grants/grant-rule";
import { describeZodError } from "../../protocol/errors";
import { CardGrant } from "../../protocol/grants";
import { MAX_TEXT_FIELD_CHARS } from "../../protocol/limits";
import type { ToolRisk } from "../../tools/define-tool";
import { defineInteraction } from "../define-interaction";
import { describeDuration } from "../describe-duration";

const RISKS = ["read", "edit", "network", "execute"] as const satisfies readonly ToolRisk[];

/** The tool call awaiting a decision, as devices render it. */
export const ApprovalRequest = z.object({
  toolName: z.string().min(1).max(128),
  /** The tool input exactly as the model gave it. */
  input: z.unknown(),
  risk: z.enum(RISKS),
  /** A one-line summary of what the call would do, when the policy can say. */
  description: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
  /** For an MCP tool: its server, its own name, title and annotations (the server's claims). */
  mcp: z
    .object({
      server: z.string().max(64),
      tool: z.string().max(128),
      title: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
      annotations: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  /** Rules the agent itself suggests for "always allow" (Claude Code's), offered as a grant's rule. */
  suggestedRules: z.array(z.string().max(MAX_RULE_CHARS)).max(10).optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** The tool input a person edited before approving: an object, like every tool input. */
export const UpdatedInput = z.record(z.string(), z.unknown(), {
  error: "updatedInput must be a JSON object",
});

/** What a device sends. A blank deny reason counts as no reason. */
export const RawApprovalDecision = z.discriminatedUnion(
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
    }),
  ],
  { error: 'must be "approve" or "deny"' },
);

/**
 * The stored decision; `remember` asks to always allow this tool for the rest of the session;
 * `updatedInput` is the input the person approved instead of the one asked about.
 */
export const ApprovalResponse = z.discriminatedUnion("decision", [
  z.object({
    decision: z.literal("approve"),
    remember: z.boolean(),
    updatedInput: UpdatedInput.optional(),
    grant: CardGrant.optional(),
  }),
  z.object({ decision: z.literal("deny"), reason: z.string().nullable(), stop: z.literal(true).optional() }),
]);
export type ApprovalResponse = z.infer<typeof ApprovalResponse>;

const GRANT_SCOPE_WORDS = { session: "this session", agent: "this agent", all: "every session" } as const;

/** A person's approve or deny for a tool call. */
export const approvalInteraction = defineInteraction<ApprovalRequest, ApprovalResponse>({
  kind: "approval",
  summary: ({ toolName, description }) => ({
    title: `Approve ${toolName}?`,
    line: description ?? `The agent wants to run ${toolName}`,
  }),
  request: ApprovalRequest,
  parseResponse(_request, raw) {
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
    if (decision.decision === "approve") {
      const edited = decision.updatedInput ? { updatedInput: decision.updatedInput } : {};
      const grant = decision.grant ? { grant: decision.grant } : {};
      return {
        ok: true,
        response: { decision: "approve", remember: decision.remember ?? false, ...edited, ...grant },
      };
    }
    const reason = decision.reason || null;
    return {
      ok: true,
      response: decision.stop ? { decision: "deny", reason, stop: true } : { decision: "deny", reason },
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
      return `Denied${response.reason ? `: “${response.reason}”` : ""}${response.stop ? " · turn stopped" : ""}`;
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

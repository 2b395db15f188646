// An ACP `session/request_permission` as a Parley approval card, and a resolved card as the ACP
// outcome. The card's tool is the call's identity (acp-identity.ts), never its title. Options map
// by kind: approve → allow_once, deny → reject_once, the "always" choices → allow_always /
// reject_always (offered on the card only when the agent offers them). Anything but a person's
// approval selects a reject option (or cancels): never an allow.
import type {
  PermissionOption,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  ToolCallContent,
} from "@agentclientprotocol/sdk";
import type { ExternalInteraction } from "../../client/client";
import { record } from "../../src/bridge/json-record";
import {
  type AcpToolContent,
  type AcpToolDetails,
  MAX_ACP_ITEMS,
} from "../../src/interactions/kinds/acp-details";
import type { ApprovalRequest } from "../../src/interactions/kinds/approval";
import { acpToolIdentity } from "./acp-identity";

type Risk = ApprovalRequest["risk"];

const RISKS: Record<string, Risk> = {
  read: "read",
  search: "read",
  think: "read",
  edit: "edit",
  delete: "edit",
  move: "edit",
  fetch: "network",
};

/** A card's own text fields stay short; long commands and diffs are shown in the content. */
const MAX_LINE = 300;

function oneLine(text: string | null | undefined, max = MAX_LINE): string | undefined {
  const line = text?.trim().split("\n")[0]?.trim();
  if (!line) return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function contentOf(block: ToolCallContent): AcpToolContent | null {
  if (block.type === "diff")
    return { type: "diff", path: block.path, oldText: block.oldText ?? null, newText: block.newText };
  if (block.type === "terminal") return { type: "terminal", terminalId: block.terminalId.slice(0, 128) };
  const inner = block.content;
  if (inner.type === "text") return { type: "text", text: inner.text };
  if (inner.type === "resource_link") return { type: "text", text: inner.uri };
  return null;
}

/** The approval card for one permission request. */
export function cardForPermission(params: RequestPermissionRequest): {
  kind: "approval";
  request: ApprovalRequest;
} {
  const call = params.toolCall;
  const kinds = new Set(params.options.map((option) => option.kind));
  const content = (call.content ?? [])
    .map(contentOf)
    .filter((block): block is AcpToolContent => block !== null)
    .slice(0, MAX_ACP_ITEMS);
  const locations = (call.locations ?? []).slice(0, MAX_ACP_ITEMS).map((location) => ({
    path: location.path,
    ...(typeof location.line === "number" && location.line >= 0 ? { line: location.line } : {}),
  }));
  const title = oneLine(call.title);
  const acp: AcpToolDetails = {
    ...(call.kind ? { kind: call.kind } : {}),
    ...(call.title ? { title: call.title.slice(0, 4000) } : {}),
    ...(content.length > 0 ? { content } : {}),
    ...(locations.length > 0 ? { locations } : {}),
    allowAlways: kinds.has("allow_always"),
    rejectAlways: kinds.has("reject_always"),
  };
  return {
    kind: "approval",
    request: {
      // What grants, denies and policies match: the title is the agent's prose (often the command).
      toolName: acpToolIdentity(call),
      input: call.rawInput ?? {},
      risk: RISKS[call.kind ?? ""] ?? "execute",
      ...(title ? { description: title } : {}),
      acp,
    },
  };
}

function pick(
  options: PermissionOption[],
  ...kinds: PermissionOption["kind"][]
): PermissionOption | undefined {
  for (const kind of kinds) {
    const found = options.find((option) => option.kind === kind);
    if (found) return found;
  }
  return undefined;
}

/** A no that needs no option: reject once, else reject always, else cancel the request. */
export function rejection(options: PermissionOption[]): RequestPermissionOutcome {
  const reject = pick(options, "reject_once", "reject_always");
  return reject ? { outcome: "selected", optionId: reject.optionId } : { outcome: "cancelled" };
}

/** The ACP outcome for a resolved card. */
export function outcomeForCard(
  options: PermissionOption[],
  state: ExternalInteraction,
): RequestPermissionOutcome {
  const response = record(state.resolution?.response);
  if (response?.decision === "approve" && response.updatedInput === undefined) {
    const allow =
      response.remember === true
        ? pick(options, "allow_always")
        : pick(options, "allow_once", "allow_always");
    if (allow) return { outcome: "selected", optionId: allow.optionId };
  }
  if (response?.decision === "deny" && response.remember === true) {
    const always = pick(options, "reject_always");
    if (always) return { outcome: "selected", optionId: always.optionId };
  }
  return rejection(options);
}

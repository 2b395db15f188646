// What an approval card shows for an Agent Client Protocol agent's request (`parley acp`): the
// ACP tool kind, its content (diffs drawn like every file diff, terminals by id, text), its locations, and the note
// that a denial reaches the agent without a reason (ACP has no place for one).

import { fileDiff } from "../../../../src/display/call-display";
import type { AcpToolContent, AcpToolDetails } from "../../../../src/interactions/kinds/acp-details";
import type { ApprovalRequest } from "../../../../src/interactions/kinds/approval";
import { h } from "../dom";
import { fileDiffView } from "./diff-view";

export const ACP_NO_REASON =
  "This agent speaks the Agent Client Protocol, which carries no reason with a denial and no edited arguments: it learns only approve or deny.";

/** The ACP details of an approval request, or null for any other agent's request. */
export function acpDetailsOf(request: unknown): AcpToolDetails | null {
  return (request as Partial<ApprovalRequest> | null)?.acp ?? null;
}

function contentBlock(block: AcpToolContent): HTMLElement {
  if (block.type === "diff") {
    return h("div", { class: "acp-diff" }, fileDiffView(fileDiff(block.path, block.oldText, block.newText)));
  }
  if (block.type === "terminal")
    return h(
      "p",
      { class: "acp-terminal" },
      "Runs in the editor's terminal ",
      h("code", { text: block.terminalId }),
    );
  return h("pre", { class: "tool-args acp-text", text: block.text });
}

/** The lines an ACP request adds to its approval card. */
export function acpDetailsView(details: AcpToolDetails): HTMLElement {
  const locations = details.locations ?? [];
  return h(
    "div",
    { class: "acp-details" },
    h(
      "p",
      { class: "mcp-origin" },
      "ACP ",
      h("strong", { text: details.kind ?? "tool" }),
      details.title ? ` · ${details.title}` : null,
    ),
    ...(details.content ?? []).map(contentBlock),
    locations.length > 0
      ? h(
          "ul",
          { class: "acp-locations", "aria-label": "Files it touches" },
          ...locations.map((location) =>
            h(
              "li",
              {},
              h("code", {
                text: location.line === undefined ? location.path : `${location.path}:${location.line}`,
              }),
            ),
          ),
        )
      : null,
    h("p", { class: "acp-note", text: ACP_NO_REASON }),
  );
}

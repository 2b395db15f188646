// The line a chat message shows for an approval that changes files — "+12 −3 in src/app.ts" — and
// the label of the button that opens the card whole in Parley, where the change is drawn in full.
import { callDisplay } from "../display/call-display";
import { changeSummary } from "../display/call-text";
import { PERMISSION_GATE_KIND } from "../interactions/kinds/names";
import type { InboxCard } from "../protocol/inbox/inbox";
import { headAndTail } from "../protocol/text/head-and-tail";
import { inert } from "../protocol/text/inert-text";

/** Longest change line; a path past it keeps both ends. */
const MAX_CHANGE_CHARS = 300;

export interface ChangeLine {
  /** Inert: the path is the agent's words. */
  text: string;
  /** "See diff" for an edit, "See file" for a file written whole. */
  label: string;
}

/** The change line of an approval card, or null for a call that changes no file it names. */
export function changeLineOf(card: Pick<InboxCard, "kind" | "toolName" | "request">): ChangeLine | null {
  if (card.kind !== PERMISSION_GATE_KIND) return null;
  const request = card.request as { toolName?: unknown; input?: unknown } | null;
  const toolName = typeof request?.toolName === "string" ? request.toolName : card.toolName;
  const display = callDisplay({ toolName, input: request?.input, request });
  const summary = changeSummary(display);
  if (summary === null) return null;
  return {
    text: headAndTail(inert(summary), MAX_CHANGE_CHARS),
    label: display.kind === "file" ? "See file" : "See diff",
  };
}

// Edit-then-approve for Parley's own loop: a person may approve a tool call with input they edited.
// The edit is checked against the tool's input schema when it is answered, runs instead of the
// model's input, and the events and the tool result say what actually ran.
import type { ToolUseBlockParam } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import { isExternalInteraction } from "./external-id";
import type { InteractionRecord } from "./ports";

/** The input a person approved instead of the model's, if they edited it (as the card's kind reads it). */
export function editedInputOf(
  deps: Pick<AgentDeps, "kinds">,
  record: Pick<InteractionRecord, "kind" | "response">,
): Record<string, unknown> | null {
  return deps.kinds.editedInput(record.kind, record.response);
}

/**
 * Why an edited input cannot run, checked against the tool's own schema (Parley's tools and MCP
 * tools); null when it fits, or when the tool is the external agent's, whose schema Parley does not know.
 */
export function refuseEditedInput(
  deps: Pick<AgentDeps, "tools" | "kinds">,
  record: Pick<InteractionRecord, "id" | "kind" | "toolName">,
  response: unknown,
): string | null {
  const edited = editedInputOf(deps, { kind: record.kind, response });
  if (!edited || isExternalInteraction(record) || !deps.tools.get(record.toolName)) return null;
  const invalid = deps.tools.validate(record.toolName, edited);
  return invalid ? `updatedInput does not fit ${record.toolName}: ${invalid.content}` : null;
}

/** Says, in the tool result the model reads, that the call ran with the person's edited input. */
export function noteEdited(use: ToolUseBlockParam, content: string): string {
  return `The user edited this call before approving it; it ran with input ${JSON.stringify(use.input)}\n\n${content}`;
}

// Forms a server pushes inside a call it holds open (protocol 2025-11-25 `elicitation/create`): the
// card is stored and shown on every device like any form, but the answer can only travel back over
// that open call, so it lives as long as this instance does.
import type { ElicitRequestFormParams, ElicitResult } from "../protocol/elicitation";

export interface LiveForm {
  /** Derived from the tool call, so a re-run of an idempotent call finds an answer already given. */
  id: string;
  toolCallId: string;
  toolName: string;
  params: ElicitRequestFormParams;
}

export interface LiveForms {
  /** Opens the form (once) and resolves with its answer: the person's, or `cancel` on timeout or abort. */
  ask(form: LiveForm, signal: AbortSignal): Promise<ElicitResult>;
}

/** The id of the k-th form (1-based) a server pushed during one tool call. */
export function liveFormId(toolCallId: string, k: number): string {
  return `${toolCallId}-pushed-${k}`;
}

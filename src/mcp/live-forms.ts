// Forms a server pushes inside a call it holds open (protocol 2025-11-25 `elicitation/create`): the
// card is stored and shown on every device like any form, but the answer can only travel back over
// that open call, so it lives as long as this instance does.
import type { ElicitResult as McpElicitResult } from "@modelcontextprotocol/client";
import type { ElicitRequestParams, ElicitResult } from "../protocol/forms/elicitation";
import { readElicitRequest } from "./elicit-request";

export interface LiveForm {
  /** Derived from the tool call, so a re-run of an idempotent call finds an answer already given. */
  id: string;
  toolCallId: string;
  toolName: string;
  params: ElicitRequestParams;
}

export interface LiveForms {
  /** Opens the form (once) and resolves with its answer: the person's, or `cancel` on timeout or abort. */
  ask(form: LiveForm, signal: AbortSignal): Promise<ElicitResult>;
}

/** The id of the k-th form (1-based) a server pushed during one tool call. */
export function liveFormId(toolCallId: string, k: number): string {
  return `${toolCallId}-pushed-${k}`;
}

/**
 * Answers the `elicitation/create` requests a server pushes during one tool call: the k-th becomes
 * form `liveFormId(toolCallId, k)`, up to `maxForms` of them. A URL request asks the person to confirm they finished on the
 * server's page; a form outside the elicitation subset is refused to the server, which then ends
 * its call its own way.
 */
export function pushedFormHandler(
  live: LiveForms,
  server: { name: string; url: string },
  call: { toolCallId: string; toolName: string },
  signal: AbortSignal,
  maxForms: number,
): (raw: unknown) => Promise<McpElicitResult> {
  let pushed = 0;
  return async (raw) => {
    pushed += 1;
    // The same cap as a tool's own forms: a server cannot keep a person answering forever.
    if (pushed > maxForms) {
      throw new Error(
        `The server asked the user more than ${maxForms} times in one call, the limit per tool call`,
      );
    }
    const id = liveFormId(call.toolCallId, pushed);
    const read = readElicitRequest(raw, server);
    if (!read.ok) throw new Error(`The server asked for ${read.message}`);
    const answer = await live.ask({ id, ...call, params: read.params }, signal);
    return read.params.mode === "url" ? { action: answer.action } : answer;
  };
}

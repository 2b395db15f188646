// Forms a server pushes inside a call it holds open (protocol 2025-11-25 `elicitation/create`): the
// card is stored and shown on every device like any form, but the answer can only travel back over
// that open call, so it lives as long as this instance does.
import type { ElicitResult as McpElicitResult } from "@modelcontextprotocol/client";
import { z } from "zod";
import { ElicitRequestFormParams, type ElicitResult } from "../protocol/elicitation";
import { describeZodError } from "../protocol/errors";
import { urlConfirmation } from "./mcp-rounds";

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

const UrlElicitation = z.looseObject({ mode: z.literal("url"), message: z.string(), url: z.string() });

/**
 * Answers the `elicitation/create` requests a server pushes during one tool call: the k-th becomes
 * form `liveFormId(toolCallId, k)`. A URL request asks the person to confirm they finished on the
 * server's page; a form outside the elicitation subset is refused to the server, which then ends
 * its call its own way.
 */
export function pushedFormHandler(
  live: LiveForms,
  call: { toolCallId: string; toolName: string },
  signal: AbortSignal,
): (raw: unknown) => Promise<McpElicitResult> {
  let pushed = 0;
  return async (raw) => {
    pushed += 1;
    const id = liveFormId(call.toolCallId, pushed);
    const url = UrlElicitation.safeParse(raw);
    if (url.success) {
      const params = urlConfirmation(url.data.message, url.data.url);
      return { action: (await live.ask({ id, ...call, params }, signal)).action };
    }
    const form = ElicitRequestFormParams.safeParse(raw);
    if (!form.success) throw new Error(`Parley cannot show this form: ${describeZodError(form.error)}`);
    return live.ask({ id, ...call, params: form.data }, signal);
  };
}

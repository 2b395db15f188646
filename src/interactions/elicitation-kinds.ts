// Which interaction kind shows an MCP elicitation (a `form`, or a `url` to visit), and what a tool or
// server gets back once it is resolved — the same for `ctx.elicit` and for forms a server pushes.
import { type ElicitRequestParams, ElicitResult, UrlElicitResult } from "../protocol/elicitation";
import type { InteractionStatus } from "../protocol/session";

/** The kind that shows `params`: MCP treats a request without `mode` as a form. */
export function elicitationKind(params: ElicitRequestParams): "form" | "url" {
  return params.mode === "url" ? "url" : "form";
}

/**
 * What the asker gets for a resolved elicitation: the person's own ElicitResult (a URL accepted
 * carries no values), or `cancel` when the deadline passed or the turn was cancelled first (MCP has
 * no separate action for either). `null` while it waits.
 */
export function elicitResultOf(status: InteractionStatus, response: unknown): ElicitResult | null {
  if (status === "pending") return null;
  const form = ElicitResult.safeParse(response);
  if (form.success) return form.data;
  const url = UrlElicitResult.safeParse(response);
  if (!url.success) return { action: "cancel" };
  return url.data.action === "accept" ? { action: "accept", content: {} } : url.data;
}

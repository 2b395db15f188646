// Which interaction kind shows an MCP elicitation (a `form`, or a `url` to visit), and what a tool or
// server gets back once it is resolved — the same for `ctx.elicit` and for forms a server pushes.
import { type ElicitRequestParams, ElicitResult, UrlElicitResult } from "../protocol/forms/elicitation";
import type { InteractionOutcome, InteractionStatus } from "../protocol/session/session";

/** The kind that shows `params`: MCP treats a request without `mode` as a form. */
export function elicitationKind(params: ElicitRequestParams): "form" | "url" {
  return params.mode === "url" ? "url" : "form";
}

/** What the request is called in an error a tool reads: a form, or a URL request. */
export function elicitationWord(params: ElicitRequestParams): string {
  return params.mode === "url" ? "URL request" : "form";
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

/**
 * A form's or a page's receipt: `accepted` (what accepting means for it), declined, or dismissed;
 * a turn cancel also ends as `cancelled` but without the person's own `cancel`, so it keeps the
 * generic word, as a timeout does.
 */
export function elicitationReceipt(
  outcome: InteractionOutcome,
  response: { action: string } | null,
  accepted: string,
): string | null {
  if (outcome === "answered") return accepted;
  if (outcome === "denied") return "Declined";
  if (outcome === "cancelled" && response?.action === "cancel") return "Dismissed";
  return null;
}

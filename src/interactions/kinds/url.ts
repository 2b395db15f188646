// The `url` kind: MCP elicitation in URL mode. A server (or a tool, through `ctx.elicit`) sends the
// person to its own page — a sign-in, a payment — and the card asks them to say when they are done.
import { ElicitRequestURLParams, UrlElicitResult } from "../../protocol/forms/elicitation";
import { describeZodError } from "../../protocol/wire/errors";
import { defineInteraction } from "../define-interaction";
import { describeDuration } from "../describe-duration";
import { elicitationReceipt } from "../elicitation-kinds";

/**
 * A page to visit, opened only by tools and MCP servers: the model gets no tool for it, so it can
 * never send a person to an address it made up.
 */
export const urlInteraction = defineInteraction<ElicitRequestURLParams, UrlElicitResult>({
  // `from` names the MCP server that sent the page, and only Parley writes it: an agent that opens
  // a card itself cannot claim to be one of the deployment's servers.
  fromAgent: (request) => {
    if (typeof request !== "object" || request === null || !("from" in request)) return request;
    const { from: _claimed, ...rest } = request as Record<string, unknown>;
    return rest;
  },
  kind: "url",
  request: ElicitRequestURLParams,
  parseResponse(_request, raw) {
    const parsed = UrlElicitResult.safeParse(raw);
    return parsed.success
      ? { ok: true, response: parsed.data }
      : { ok: false, message: describeZodError(parsed.error) };
  },
  outcome: (_request, response) =>
    response.action === "accept" ? "answered" : response.action === "decline" ? "denied" : "cancelled",
  receipt: (outcome, response) => elicitationReceipt(outcome, response, "Finished on the page"),
  toResult(request, response) {
    if (response.action === "accept")
      return { content: `User opened ${request.url} and said they finished there.`, isError: false };
    if (response.action === "decline")
      return { content: `User declined to open ${request.url}.`, isError: false };
    return { content: `User dismissed the request to open ${request.url}.`, isError: false };
  },
  onTimeout: (request, { timeoutMs }) => ({
    content: `User did not confirm visiting ${request.url} within ${describeDuration(timeoutMs)}`,
    isError: true,
  }),
  onCancel: () => ({ content: "User cancelled the turn before visiting the page", isError: true }),
});

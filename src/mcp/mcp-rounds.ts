// A `tools/call` that asks for input first (protocol 2026-07-28, `input_required`): each round's
// requests and opaque `requestState` are stored with the tool call, every request becomes a form a
// person answers (`ctx.elicit`, a durable interrupt), and only when all are answered is the call
// retried with `inputResponses` and the state exactly as the server sent it. A call refused with
// "URL elicitation required" (-32042) is a round too: its pages are visited, then the call is re-sent.
import * as z from "zod";
import type { ElicitRequestParams, ElicitResult } from "../protocol/forms/elicitation";
import { lazySchema } from "../protocol/lazy-schema";
import type { ToolOutput } from "../tools/define-tool";
import { readElicitRequest } from "./elicit-request";
import type { McpCallOptions, McpCallOutcome } from "./mcp-connection";
import { describeCallResult } from "./mcp-result";

export const McpRound = lazySchema(() =>
  z.object({
    inputRequests: z.record(z.string(), z.unknown()),
    requestState: z.string().nullable(),
    /** Set for a -32042 refusal: the same call is sent again, as it was, once every page is visited. */
    urlRequired: z.literal(true).optional(),
  }),
);
type McpRound = z.infer<typeof McpRound>;
export const McpCallState = lazySchema(() => z.object({ rounds: z.array(McpRound) }));
export type McpCallState = z.infer<typeof McpCallState>;

/** The rounds of one tool call, kept in SQLite so the answers and the retry survive any restart. */
export interface McpCallStore {
  get(toolCallId: string): McpCallState | null;
  save(toolCallId: string, server: string, state: McpCallState): void;
}

/** Rounds one call may take before it is given up: a server that never stops asking is a bug. */
export const MAX_INPUT_ROUNDS = 5;

export interface RoundsContext {
  server: string;
  /** The server's configured address: a URL request names its host. */
  serverUrl: string;
  tool: string;
  toolCallId: string;
  input: Record<string, unknown>;
  signal: AbortSignal;
  call(options: Omit<McpCallOptions, "signal">): Promise<McpCallOutcome>;
  calls: McpCallStore;
  /** `ctx.elicit`: a form or URL card, answered durably (the tool runs again once it is resolved). */
  elicit(params: ElicitRequestParams): Promise<ElicitResult>;
}

export async function callWithRounds(ctx: RoundsContext): Promise<ToolOutput> {
  let state = ctx.calls.get(ctx.toolCallId);
  if (!state) {
    const first = await ctx.call({});
    if (first.kind === "result") return describeCallResult(ctx.server, first.result);
    state = { rounds: [roundOf(first)] };
    ctx.calls.save(ctx.toolCallId, ctx.server, state);
  }
  // Earlier rounds are replayed: their forms return the recorded answers and were already sent.
  for (let index = 0; ; index += 1) {
    const round = state.rounds[index];
    if (!round) throw new Error("a stored round is missing");
    const inputResponses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(round.inputRequests)) {
      const answered = await answer(ctx, request);
      if ("refused" in answered) return { content: answered.refused, isError: true };
      inputResponses[key] = answered.response;
    }
    if (index < state.rounds.length - 1) continue;
    if (state.rounds.length > MAX_INPUT_ROUNDS) {
      return {
        content: `MCP server "${ctx.server}" kept asking for input (${state.rounds.length} rounds); the call was given up.`,
        isError: true,
      };
    }
    if (round.urlRequired) {
      const actions = Object.values(inputResponses).map(
        (response) => (response as { action: string }).action,
      );
      if (actions.some((action) => action !== "accept")) {
        const how = actions.includes("decline") ? "declined to open" : "did not finish on";
        return {
          content: `MCP server "${ctx.server}" needs the user to finish on its page before this call; the user ${how} it, so the call was not completed.`,
          isError: true,
        };
      }
    }
    const next = await ctx.call(
      round.urlRequired ? {} : { inputResponses, requestState: round.requestState },
    );
    if (next.kind === "result") return describeCallResult(ctx.server, next.result);
    state = { rounds: [...state.rounds, roundOf(next)] };
    ctx.calls.save(ctx.toolCallId, ctx.server, state);
  }
}

/** The round a call that asked for input stores: its requests, or a -32042 refusal's pages as requests. */
function roundOf(outcome: Exclude<McpCallOutcome, { kind: "result" }>): McpRound {
  if (outcome.kind === "input_required") {
    return { inputRequests: outcome.inputRequests, requestState: outcome.requestState };
  }
  const inputRequests: Record<string, unknown> = {};
  outcome.elicitations.forEach((params, i) => {
    inputRequests[`page-${i + 1}`] = { method: "elicitation/create", params };
  });
  return { inputRequests, requestState: null, urlRequired: true };
}

const Embedded = lazySchema(() =>
  z.looseObject({ method: z.string(), params: z.looseObject({}).optional() }),
);

/** One embedded request answered: a form for an elicitation, a refusal for anything else. */
async function answer(
  ctx: RoundsContext,
  raw: unknown,
): Promise<{ response: unknown } | { refused: string }> {
  const request = Embedded.safeParse(raw);
  const from = `MCP server "${ctx.server}"`;
  if (!request.success) return { refused: `${from} sent an input request that is not an MCP request.` };
  const { method, params = {} } = request.data;
  if (method === "elicitation/create") {
    const read = readElicitRequest(params, { name: ctx.server, url: ctx.serverUrl });
    if (!read.ok) return { refused: `${from} asked for ${read.message}.` };
    const done = await ctx.elicit(read.params);
    // A URL request is answered with the action alone: its values stay on the server's page.
    return { response: read.params.mode === "url" ? { action: done.action } : done };
  }
  if (method === "roots/list") return { response: { roots: [] } };
  if (method === "sampling/createMessage") {
    return {
      refused: `${from} asked this client to run the model for it (sampling), which Parley does not offer; the call was not completed.`,
    };
  }
  return {
    refused: `${from} asked for "${method}", which Parley cannot answer; the call was not completed.`,
  };
}

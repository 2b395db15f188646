// Keeps every model request inside the model's context window (docs/architecture.md#long-sessions): first old tool
// results are cleared in the stored transcript; if that is not enough, older turns are compacted
// into a summary the model writes. Either way every device hears of it.
import type { ContentBlockParam, MessageParam, ModelRequest } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import { buildModelRequest } from "./model-request";
import { StreamAssembler } from "./stream-assembler";

export const DEFAULT_CONTEXT_TOKENS = 200_000;
/** Tool results in the last few user messages stay whole; the model is most likely to need them. */
const KEEP_RECENT_RESULTS = 2;
/** Results shorter than this are not worth clearing. */
const MIN_CLEARED_CHARS = 200;
export const CLEARED_RESULT =
  "[This tool result was cleared to keep the conversation within the model's context window. Call the tool again if you need it.]";
export const SUMMARY_PREFIX =
  "Summary of the earlier conversation, written when it was compacted to fit the model's context window:\n\n";
const SUMMARY_SYSTEM =
  "You compact conversations between a user and an AI assistant that uses tools. Write a faithful, dense summary of the transcript you are given: the user's goals and preferences, decisions and answers they gave, what was done with which tools and what came of it, open questions and next steps. Leave out nothing the assistant would need to carry on.";
/** Longest transcript text sent to be summarized, as a share of the window (the rest is dropped, oldest first). */
const SUMMARY_INPUT_SHARE = 0.6;

/**
 * Estimated tokens of a request. Deliberately pessimistic (3 characters a token, where English
 * averages about 4), so a request is trimmed before the API would reject it.
 */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 3);
}

/** The token budget a request must fit: the window minus the reply's room and a margin. */
export function requestBudget(deps: Pick<AgentDeps, "settings">): number {
  const window = deps.settings.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  return Math.floor(window * 0.95) - deps.settings.maxTokens;
}

/** The request the loop is about to send, built from stored state. */
export function nextRequest(
  deps: Pick<AgentDeps, "kinds" | "settings" | "tools" | "transcript" | "turn">,
  pausedForPerson: boolean,
  messages = deps.transcript.messages(),
): ModelRequest {
  return buildModelRequest({
    model: deps.settings.model,
    maxTokens: deps.settings.maxTokens,
    systemPrompt: deps.turn.systemPrompt(),
    tools: [...deps.tools.forModel(), ...deps.kinds.toolSpecs()],
    messages,
    pausedForPerson,
  });
}

/**
 * Makes the next request fit: clears old tool results, then compacts older turns. Throws what the
 * summarizing model call throws (the caller treats it like any failed model call).
 */
export async function fitContext(
  deps: Pick<
    AgentDeps,
    "clock" | "events" | "kinds" | "model" | "settings" | "tools" | "transcript" | "turn"
  >,
  turnId: string,
  pausedForPerson: boolean,
  signal: AbortSignal,
): Promise<void> {
  const budget = requestBudget(deps);
  const before = estimateTokens(nextRequest(deps, pausedForPerson));
  if (before <= budget) return;

  const { messages: cleared, count } = clearOldResults(deps.transcript.messages());
  if (count > 0) {
    deps.transcript.rewrite(cleared);
    const after = estimateTokens(nextRequest(deps, pausedForPerson));
    deps.events.append("context_compacted", {
      turnId,
      action: "cleared_tool_results",
      clearedResults: count,
      summarizedMessages: 0,
      tokensBefore: before,
      tokensAfter: after,
    });
    if (after <= budget) return;
  }

  const messages = deps.transcript.messages();
  const cut = compactionCut(messages);
  if (cut === null) return; // the current turn alone is the history; nothing older to compact
  const estimate = estimateTokens(nextRequest(deps, pausedForPerson));
  const summary = await summarize(deps, messages.slice(0, cut), signal);
  if (summary === null) return;
  const [first, ...rest] = messages.slice(cut);
  if (!first) return;
  const head: MessageParam = {
    role: "user",
    content: [{ type: "text", text: `${SUMMARY_PREFIX}${summary}` }, ...blocks(first)],
  };
  deps.transcript.rewrite([head, ...rest]);
  deps.events.append("context_compacted", {
    turnId,
    action: "summarized",
    clearedResults: 0,
    summarizedMessages: cut,
    tokensBefore: estimate,
    tokensAfter: estimateTokens(nextRequest(deps, pausedForPerson)),
  });
}

/** Replaces the content of tool results older than the last few user messages that carry any. */
export function clearOldResults(messages: MessageParam[]): { messages: MessageParam[]; count: number } {
  let recent = 0;
  let count = 0;
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const message = out[i];
    if (message?.role !== "user") continue;
    const content = blocks(message);
    if (!content.some((block) => block.type === "tool_result")) continue;
    recent += 1;
    if (recent <= KEEP_RECENT_RESULTS) continue;
    let changed = false;
    const next = content.map((block) => {
      if (block.type !== "tool_result" || resultChars(block) < MIN_CLEARED_CHARS) return block;
      changed = true;
      count += 1;
      return { ...block, content: CLEARED_RESULT };
    });
    if (changed) out[i] = { ...message, content: next };
  }
  return { messages: out, count };
}

/**
 * Where to cut: the latest user message that starts a turn (plain text, no tool results), so the
 * kept tail is the current turn and the history before it is summarized. Null when there is none.
 */
export function compactionCut(messages: MessageParam[]): number | null {
  for (let i = messages.length - 1; i > 0; i--) {
    const message = messages[i];
    if (message?.role === "user" && !blocks(message).some((block) => block.type === "tool_result")) return i;
  }
  return null;
}

async function summarize(
  deps: Pick<AgentDeps, "clock" | "model" | "settings">,
  history: MessageParam[],
  signal: AbortSignal,
): Promise<string | null> {
  const window = deps.settings.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const maxChars = Math.floor(window * SUMMARY_INPUT_SHARE * 3);
  let text = history.map(render).join("\n\n");
  if (text.length > maxChars) text = `[…earlier part omitted…]\n${text.slice(text.length - maxChars)}`;
  const request: ModelRequest = {
    model: deps.settings.model,
    max_tokens: Math.min(deps.settings.maxTokens, 4_096),
    system: [{ type: "text", text: SUMMARY_SYSTEM }],
    tools: [],
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: `<transcript>\n${text}\n</transcript>\n\nSummarize this transcript.` },
        ],
      },
    ],
  };
  const assembler = new StreamAssembler(
    () => undefined,
    () => deps.clock.now(),
  );
  for await (const event of deps.model.stream(request, signal)) assembler.push(event);
  const summary = assembler
    .finish()
    .content.map((block) => (block.type === "text" ? block.text : ""))
    .join("")
    .trim();
  return summary === "" ? null : summary;
}

function render(message: MessageParam): string {
  const parts = blocks(message).map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "tool_use":
        return `[called ${block.name} with ${JSON.stringify(block.input).slice(0, 500)}]`;
      case "tool_result":
        return `[result: ${resultText(block).slice(0, 500)}]`;
      default:
        return `[${block.type}]`;
    }
  });
  return `${message.role === "user" ? "User" : "Assistant"}: ${parts.join("\n")}`;
}

function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function resultText(block: Extract<ContentBlockParam, { type: "tool_result" }>): string {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("");
}

function resultChars(block: Extract<ContentBlockParam, { type: "tool_result" }>): number {
  return resultText(block).length;
}

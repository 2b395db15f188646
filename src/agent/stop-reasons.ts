// What a reply's stop reason means for the turn: `pause_turn` continues it, `max_tokens` in the
// middle of a tool call drops that unfinished call (its input is cut off) so the transcript stays
// valid, and `refusal` ends the turn with a notice a person can act on.
import type { ContentBlockParam, StopReason } from "../model/model-client";

export interface ReviewedReply {
  content: ContentBlockParam[];
  notice: { code: string; message: string } | null;
  continuePaused: boolean;
}

export function reviewStop(content: ContentBlockParam[], stopReason: StopReason | null): ReviewedReply {
  switch (stopReason) {
    case "pause_turn":
      return { content, notice: null, continuePaused: true };
    case "refusal":
      return {
        content,
        notice: {
          code: "refusal",
          message:
            "The model declined to continue this request (refusal). Rephrase it or ask something else.",
        },
        continuePaused: false,
      };
    case "max_tokens": {
      const last = content.at(-1);
      if (last?.type === "tool_use") {
        return {
          content: content.slice(0, -1),
          notice: {
            code: "max_tokens",
            message: `The reply reached its output limit while writing a call to ${last.name}; that unfinished call was dropped. Ask the agent to continue.`,
          },
          continuePaused: false,
        };
      }
      return {
        content,
        notice: {
          code: "max_tokens",
          message: "The reply was cut off at its output limit. Ask the agent to continue.",
        },
        continuePaused: false,
      };
    }
    default:
      return { content, notice: null, continuePaused: false };
  }
}

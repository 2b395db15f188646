// The stored events of one streamed model call: text and tool-call pieces as the assembler
// coalesces them, each marked with the agent that is speaking.
import type { FrameMark } from "../protocol/session/agents";
import type { EventSink } from "./ports";
import type { StreamOutput } from "./stream-assembler";

/** Appends the event for one piece of output of model call `call` in turn `turnId`. */
export function appendOutput(
  events: EventSink,
  turnId: string,
  call: number,
  frame: FrameMark,
  output: StreamOutput,
): void {
  switch (output.type) {
    case "text_delta": {
      const { index, offset, text } = output;
      events.append("text_delta", { turnId, index, text, call, offset, ...frame });
      return;
    }
    case "tool_call_start":
      events.append("tool_call_start", {
        turnId,
        toolCallId: output.toolCallId,
        name: output.name,
        index: output.index,
        ...frame,
      });
      return;
    case "tool_call_delta":
      events.append("tool_call_delta", {
        toolCallId: output.toolCallId,
        partialJson: output.partialJson,
        offset: output.offset,
        ...frame,
      });
      return;
    case "tool_call_end":
      events.append("tool_call_end", {
        toolCallId: output.toolCallId,
        name: output.name,
        input: output.input,
        ...frame,
      });
  }
}

// The one pure fold that turns `agent_started` / `agent_completed` events into the current stack.
// Free of zod on purpose: the web page imports it, and a zod import would pull the library into
// the page's bundle.
import type { AgentFrameView } from "./agents";

type StackEvent =
  | { type: "agent_started"; data: AgentFrameView }
  | { type: "agent_completed"; data: { frameId: string } }
  | { type: string; data: unknown };

/**
 * The stack after `event`: a start pushes, a completion pops that frame (and anything above it,
 * which a well-formed log never has). Other events leave it unchanged. Bottom first.
 */
export function applyStackEvent(stack: readonly AgentFrameView[], event: StackEvent): AgentFrameView[] {
  if (event.type === "agent_started") return [...stack, event.data as AgentFrameView];
  if (event.type === "agent_completed") {
    const { frameId } = event.data as { frameId: string };
    const at = stack.findIndex((frame) => frame.frameId === frameId);
    return at < 0 ? [...stack] : stack.slice(0, at);
  }
  return [...stack];
}

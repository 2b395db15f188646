// Which kind of device sent an answer, from the id it gave itself: the terminal's are `cli-…`, a
// bridge's `agent-…`, a push action's `push-…`, a chat's `chat-…`; no id is the HTTP API.
import type { DeviceKind } from "../protocol/grants";

export function deviceKindOf(deviceId: string | null): DeviceKind {
  if (deviceId === null) return "api";
  if (deviceId.startsWith("cli-")) return "terminal";
  if (deviceId.startsWith("agent-")) return "bridge";
  if (deviceId.startsWith("push-")) return "push";
  if (deviceId.startsWith("chat-")) return "chat";
  return "page";
}

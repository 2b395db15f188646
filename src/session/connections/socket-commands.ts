// One WebSocket frame in, one ack out: the socket's frame allowance, parse, read who sent it, then
// replay, or send the command through the session's one door (session-door.ts). Never throws, so a
// bad frame or a failing command cannot close the socket.
import { logSecurityEvent } from "../../log/security-log";
import { closeSocket, readAttachment, sendAck } from "../../objects/socket-access";
import type { Access } from "../../protocol/access/access";
import type { DeviceKind } from "../../protocol/cards/decider";
import type { SessionCommand } from "../../protocol/wire/commands";
import type { ErrorBody } from "../../protocol/wire/errors";
import type { SocketBudget } from "../budgets/socket-budget";
import type { CommandOutcome } from "../command-handler";
import { parseCommandFrame } from "./socket-frames";

/** What the session offers a socket's commands. */
export interface SocketCommandHost {
  budget: SocketBudget;
  gate(access: Access): ErrorBody | null;
  /** Sends the stored events after `after` to this socket; returns the last seq sent. */
  replay(ws: WebSocket, after: number): number;
  /** Whether the replay budget (replay-budget.ts) of this socket's credential has room for another replay. */
  mayReplay(ws: WebSocket): boolean;
  /** The session and link a socket belongs to, for the security log. */
  logIds(ws: WebSocket): { sessionId: string; linkId: string | null };
  /** Sends a command through the session's door, as this socket's credential and device. */
  run(
    command: SessionCommand,
    from: { deviceId: string; device: DeviceKind },
    access: Access,
  ): Promise<CommandOutcome>;
}

export async function answerSocketFrame(
  host: SocketCommandHost,
  ws: WebSocket,
  message: string | ArrayBuffer,
): Promise<void> {
  let requestId: string | null = null;
  try {
    const parsed = parseCommandFrame(message);
    if (!host.budget.take(ws)) {
      logSecurityEvent("rate_limited", { ...host.logIds(ws), reason: "socket_commands" });
      return sendAck(ws, {
        type: "ack",
        requestId: parsed.ok ? (parsed.command.requestId ?? null) : parsed.requestId,
        ok: false,
        error: { code: "rate_limited", message: "Too many commands on this connection; slow down" },
      });
    }
    if (!parsed.ok)
      return sendAck(ws, { type: "ack", requestId: parsed.requestId, ok: false, error: parsed.error });
    const command = parsed.command;
    requestId = command.requestId ?? null;
    const socket = readAttachment(ws);
    if (!socket) {
      // Who this socket is cannot be read back: it may do nothing, and reconnecting states it afresh.
      sendAck(ws, {
        type: "ack",
        requestId,
        ok: false,
        error: { code: "forbidden", message: "This connection's access could not be read; reconnect" },
      });
      return closeSocket(ws, 1008, "Unreadable connection state");
    }
    const { access } = socket;
    if (command.type === "resume") {
      const refused = host.gate(access);
      if (refused) return sendAck(ws, { type: "ack", requestId, ok: false, error: refused });
      if (!host.mayReplay(ws)) {
        logSecurityEvent("rate_limited", { ...host.logIds(ws), reason: "replay_bytes" });
        const error: ErrorBody = {
          code: "rate_limited",
          message: "Too much history replayed on this connection in the last minute; resume later",
        };
        return sendAck(ws, { type: "ack", requestId, ok: false, error });
      }
      const lastSeq = host.replay(ws, command.after);
      return sendAck(ws, { type: "ack", requestId, ok: true, result: { lastSeq } });
    }
    const outcome = await host.run(command, { deviceId: socket.deviceId, device: socket.client }, access);
    sendAck(
      ws,
      outcome.ok
        ? { type: "ack", requestId, ok: true, result: outcome.result }
        : { type: "ack", requestId, ok: false, error: outcome.error },
    );
  } catch (error) {
    console.error("SessionObject.webSocketMessage failed", error);
    sendAck(ws, {
      type: "ack",
      requestId,
      ok: false,
      error: { code: "internal", message: "Internal error" },
    });
  }
}

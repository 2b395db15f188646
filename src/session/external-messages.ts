// The person's messages to an agent that runs elsewhere: each is a row and a `user_message` event,
// stored before any device or bridge sees it; the bridge reads them with a long-poll and
// acknowledges each once its agent has it (`message_delivered`). Stopping the session ends them.
import * as z from "zod";
import type { AgentDeps } from "../agent/agent-deps";
import type { Outcome } from "../objects/outcome";
import type {
  AgentMessage,
  AgentMessagesPage,
  MarkDeliveredCommand,
} from "../protocol/external/agent-messages";
import { MAX_MESSAGES_PAGE } from "../protocol/external/agent-messages";
import { MAX_QUEUED_MESSAGES } from "../protocol/limits";
import type { SessionCommand } from "../protocol/wire/commands";
import type { SqlCounter } from "../storage/sql-counter";
import type { CommandOutcome } from "./command-handler";
import type { InteractionWaiters } from "./interaction-waiters";
import type { SessionState } from "./session-state";
import type { SentMessageLog } from "./stores/sent-message-log";

/** The waiters' key for a bridge waiting on messages (no interaction id can take it: ids have no space). */
export const MESSAGE_WAIT = "agent messages";
const STOPPED_KEY = "external_stopped";

type MessageRow = { message_id: string; text: string; interrupt: number; at: number };

/** The `agent_messages` table. */
export class AgentMessageStore {
  constructor(private readonly sql: SqlCounter) {}

  add(message: AgentMessage): void {
    this.sql.run(
      ["agent_messages"],
      `INSERT INTO agent_messages (message_id, text, interrupt, at) VALUES (?, ?, ?, ?)`,
      message.messageId,
      message.text,
      message.interrupt ? 1 : 0,
      message.at,
    );
  }

  /** Where message `messageId` stands in the order sent; null for no such message. */
  seqOf(messageId: string): number | null {
    return (
      this.sql.one<{ seq: number }>(`SELECT seq FROM agent_messages WHERE message_id = ?`, messageId)?.seq ??
      null
    );
  }

  /** The messages after position `seq`, or, with none, those no bridge has acknowledged yet. */
  after(seq: number | null): AgentMessage[] {
    const rows =
      seq === null
        ? this.sql.all<MessageRow>(
            `SELECT message_id, text, interrupt, at FROM agent_messages WHERE delivered_by IS NULL ORDER BY seq LIMIT ?`,
            MAX_MESSAGES_PAGE,
          )
        : this.sql.all<MessageRow>(
            `SELECT message_id, text, interrupt, at FROM agent_messages WHERE seq > ? ORDER BY seq LIMIT ?`,
            seq,
            MAX_MESSAGES_PAGE,
          );
    return rows.map((row) => ({
      messageId: row.message_id,
      text: row.text,
      interrupt: row.interrupt === 1,
      at: row.at,
    }));
  }

  /** How many messages wait for a bridge. */
  undelivered(): number {
    return (
      this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM agent_messages WHERE delivered_by IS NULL`)?.n ??
      0
    );
  }

  /** The bridge that acknowledged `messageId`: null while none has, undefined for no such message. */
  deliveredBy(messageId: string): string | null | undefined {
    const row = this.sql.one<{ delivered_by: string | null }>(
      `SELECT delivered_by FROM agent_messages WHERE message_id = ?`,
      messageId,
    );
    return row ? row.delivered_by : undefined;
  }

  markDelivered(messageId: string, bridge: string, at: number): void {
    this.sql.run(
      ["agent_messages"],
      `UPDATE agent_messages SET delivered_by = ?, delivered_at = ? WHERE message_id = ? AND delivered_by IS NULL`,
      bridge,
      at,
      messageId,
    );
  }
}

export interface MessageContext {
  state: SessionState;
  deps: AgentDeps;
  sentMessages: SentMessageLog;
  /** Who sends it, as the server knows them (recorded on the event). */
  by: string | null;
}

export function isStopped(state: SessionState): boolean {
  return state.meta.get(STOPPED_KEY, z.literal(true)) === true;
}

const stoppedRefusal = (): CommandOutcome => ({
  ok: false,
  error: {
    code: "session_stopped",
    message: "This session was stopped: its agent takes no more messages",
  },
});

/**
 * The commands that carry the person's words to an external session's agent or stop it: a
 * message, `cancel` (which stops the session) and the bridge's acknowledgement. Null for any other.
 */
export function runMessageCommand(
  ctx: MessageContext,
  command: SessionCommand,
  deviceId: string | null,
): CommandOutcome | null {
  if (command.type === "send_message") return sendToAgent(ctx, command, deviceId);
  if (command.type === "mark_delivered") return markDelivered(ctx, command);
  if (command.type === "cancel") return stopSession(ctx);
  return null;
}

function sendToAgent(
  { state, deps, sentMessages, by }: MessageContext,
  command: Extract<SessionCommand, { type: "send_message" }>,
  deviceId: string | null,
): CommandOutcome {
  // A resend after a lost answer carries the same Idempotency-Key and text: the first result, stored once.
  const requestKey = command.requestId ? `${deviceId ?? ""}|${command.requestId}` : null;
  const earlier = requestKey ? sentMessages.find(requestKey, command.text) : null;
  if (earlier) return { ok: true, result: { ...earlier, duplicate: true } };
  if (isStopped(state)) return stoppedRefusal();
  const store = new AgentMessageStore(state.sql);
  if (store.undelivered() >= MAX_QUEUED_MESSAGES) {
    return {
      ok: false,
      error: {
        code: "queue_full",
        message: `${MAX_QUEUED_MESSAGES} messages already wait for the agent; send more once it has them`,
      },
    };
  }
  const messageId = deps.newId("msg");
  const interrupt = command.interrupt === true;
  deps.atomically(() => {
    store.add({ messageId, text: command.text, interrupt, at: state.clock.now() });
    if (requestKey) sentMessages.record(requestKey, command.text, { messageId, queued: true });
    deps.events.append("user_message", {
      messageId,
      text: command.text,
      queued: false,
      deviceId,
      ...(by ? { by } : {}),
      awaitsAgent: true,
      ...(interrupt ? { interrupt: true } : {}),
    });
  });
  return { ok: true, result: { messageId, queued: true } };
}

function markDelivered({ state, deps }: MessageContext, command: MarkDeliveredCommand): CommandOutcome {
  const store = new AgentMessageStore(state.sql);
  const earlier = store.deliveredBy(command.messageId);
  if (earlier === undefined) {
    return {
      ok: false,
      error: {
        code: "unknown_message",
        message: `No message with id "${command.messageId}" in this session`,
      },
    };
  }
  if (earlier !== null) {
    return { ok: true, result: { messageId: command.messageId, bridge: earlier, duplicate: true } };
  }
  deps.atomically(() => {
    store.markDelivered(command.messageId, command.bridge, state.clock.now());
    deps.events.append("message_delivered", { messageId: command.messageId, bridge: command.bridge });
  });
  return { ok: true, result: { messageId: command.messageId, bridge: command.bridge, duplicate: false } };
}

function stopSession({ state, deps, by }: MessageContext): CommandOutcome {
  if (isStopped(state)) {
    return { ok: false, error: { code: "nothing_to_cancel", message: "This session was stopped already" } };
  }
  deps.atomically(() => {
    state.meta.set(STOPPED_KEY, true);
    deps.events.append("session_stopped", { by });
  });
  return { ok: true, result: null };
}

/**
 * The messages for the agent's bridge after `after` (none: those not yet acknowledged); when there
 * are none and the session runs, waits (without polling) up to `waitMs` for the next one.
 */
export async function readAgentMessages(
  state: SessionState,
  waiters: InteractionWaiters,
  query: { after: string | undefined; waitMs: number },
  exists: () => boolean,
): Promise<Outcome<AgentMessagesPage>> {
  const store = new AgentMessageStore(state.sql);
  let seq: number | null = null;
  if (query.after !== undefined) {
    seq = store.seqOf(query.after);
    if (seq === null) {
      return {
        ok: false,
        error: { code: "unknown_message", message: `No message with id "${query.after}" in this session` },
      };
    }
  }
  const first = store.after(seq);
  if (first.length > 0 || query.waitMs <= 0 || isStopped(state))
    return { ok: true, result: { messages: first, stopped: isStopped(state) } };
  await waiters.wait(MESSAGE_WAIT, query.waitMs);
  // The session may have been deleted while the request waited.
  if (!exists()) return { ok: false, error: { code: "unknown_session", message: "No such session" } };
  return { ok: true, result: { messages: store.after(seq), stopped: isStopped(state) } };
}

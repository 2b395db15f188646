// The browser's view of one session as a pure reducer: hello snapshots and numbered events in, a
// transcript view model out. No DOM and no clock reads, so it is unit-tested like any function.
import { namesSomeone } from "../../src/protocol/access/people";
import type { ApprovalCount } from "../../src/protocol/cards/approval-count";
import type { DeltaFrame, HelloFrame, InteractionResolution, SessionEvent } from "../../src/protocol/index";
import { applyStackEvent } from "../../src/protocol/session/agent-stack-fold";
import { mergeText } from "../../src/protocol/text/text-merge";
import { isPromptEvent } from "../../src/protocol/wire/prompt-event";
import { agentNotice } from "./agent-notices";
import {
  type AssistantItem,
  type InteractionState,
  initialView,
  type NoticeItem,
  type SessionView,
  type ToolItem,
  type UserItem,
} from "./session-view";
import { ViewDraft } from "./view-draft";

// The view model's types and its empty state live in session-view.ts; importers of the reducer get them here too.
export type {
  AssistantItem,
  InteractionState,
  NoticeItem,
  SessionView,
  Speaker,
  ToolItem,
  ToolPhase,
  TranscriptItem,
  UserItem,
} from "./session-view";
export { initialView };

export type ViewAction =
  | { type: "hello"; frame: HelloFrame; receivedAt: number }
  | { type: "events"; events: readonly SessionEvent[] }
  /** A live model delta (no seq): shown at once, merged with the stored copy by offset. */
  | { type: "delta"; frame: DeltaFrame }
  | { type: "resolution"; resolution: InteractionResolution };

/** Returns the next view; never mutates `view`. Events at or below `lastSeq` are ignored. */
export function reduceView(view: SessionView, action: ViewAction): SessionView {
  switch (action.type) {
    case "hello":
      return applyHello(view, action.frame, action.receivedAt);
    case "events":
      return applyEvents(view, action.events);
    case "delta": {
      const draft = new ViewDraft(view);
      applyDelta(draft, action.frame);
      return draft.finish();
    }
    case "resolution": {
      const draft = new ViewDraft(view);
      resolve(draft, action.resolution);
      return draft.finish();
    }
  }
}

function applyHello(view: SessionView, frame: HelloFrame, receivedAt: number): SessionView {
  const { snapshot } = frame;
  const draft = new ViewDraft(view);
  Object.assign(draft.view, {
    sessionId: snapshot.sessionId,
    deviceId: frame.deviceId,
    connectedOnce: true,
    status: snapshot.status,
    mode: snapshot.mode,
    // An external agent answers for itself: the deployment's demo model is not what replies there.
    demo: snapshot.demo && !snapshot.agent,
    agent: snapshot.agent
      ? {
          name: snapshot.agent.name,
          title: snapshot.agent.title,
          ...(snapshot.agent.folder ? { folder: snapshot.agent.folder } : {}),
          ...(snapshot.agent.machine ? { machine: snapshot.agent.machine } : {}),
        }
      : null,
    model: snapshot.model,
    clockSkewMs: snapshot.serverTime - receivedAt,
    stack: snapshot.stack,
    stackAsOf: snapshot.lastSeq,
    modelRetry: snapshot.modelRetry
      ? { attempt: snapshot.modelRetry.attempt, retryAt: snapshot.modelRetry.retryAt }
      : null,
  });
  // The snapshot names pending prompts even when their events predate this client's cursor.
  for (const { status: _status, ...pending } of snapshot.pending) {
    addInteraction(draft, { ...pending, id: interactionIdOf(pending), resolution: null });
  }
  return draft.finish();
}

function applyEvents(view: SessionView, events: readonly SessionEvent[]): SessionView {
  const draft = new ViewDraft(view);
  for (const event of events) {
    if (event.seq <= draft.view.lastSeq) continue;
    draft.view.lastSeq = event.seq;
    applyEvent(draft, event);
    applyStack(draft, event);
  }
  return draft.finish();
}

function applyEvent(draft: ViewDraft, event: SessionEvent): void {
  const v = draft.view;
  // Any progress of the turn (or its end) means the waited-for retry happened.
  if (v.modelRetry && event.type !== "model_retry" && event.type !== "session_status") v.modelRetry = null;
  // A card of any kind, under whichever event its kind is announced with (seed-names.ts).
  if (isPromptEvent(event)) {
    addInteraction(draft, { ...event.data, id: interactionIdOf(event.data), resolution: null });
    return;
  }
  switch (event.type) {
    case "user_message": {
      const { messageId, text, queued, deviceId, by } = event.data;
      // A queued message is labelled with the agent on top now, and again when its turn starts.
      const item: UserItem = {
        kind: "user",
        id: `user:${messageId}`,
        messageId,
        text,
        deviceId,
        ...(by ? { by } : {}),
        agent: draft.speaker(event.data),
        ...(event.data.awaitsAgent ? { delivery: null } : {}),
        ...(event.data.interrupt ? { interrupt: true as const } : {}),
      };
      v.lastUserText = text;
      if (queued) v.queued = [...v.queued, item];
      else draft.append(item);
      return;
    }
    case "message_delivered": {
      const item = draft.get(`user:${event.data.messageId}`);
      if (item?.kind === "user") draft.put({ ...item, delivery: event.data.bridge });
      return;
    }
    case "session_stopped":
      draft.append(notice(event.seq, "info", "The session was stopped: its agent takes no more messages."));
      return;
    case "turn_started": {
      const waiting = v.queued.find((m) => m.messageId === event.data.messageId);
      if (waiting) {
        v.queued = v.queued.filter((m) => m !== waiting);
        draft.append(
          event.data.depth === undefined ? waiting : { ...waiting, agent: draft.speaker(event.data) },
        );
      }
      v.liveBlocks = {};
      return;
    }
    case "text_delta": {
      const { turnId, index, text, call, offset } = event.data;
      if (call !== undefined && offset !== undefined) {
        const { agent, depth } = event.data;
        mergeBlockText(draft, { turnId, call, index, offset, text, agent, depth });
        return;
      }
      // Stored before events carried offsets: each one simply continues the block.
      const id = v.liveBlocks[index];
      const current = id ? draft.get(id) : undefined;
      if (current?.kind === "assistant") {
        draft.put({ ...current, text: current.text + text });
      } else {
        const item: AssistantItem = {
          kind: "assistant",
          id: `text:${event.seq}`,
          turnId,
          text,
          ahead: [],
          streaming: true,
          agent: draft.speaker(event.data),
        };
        draft.append(item);
        v.liveBlocks = { ...v.liveBlocks, [index]: item.id };
      }
      return;
    }
    case "tool_call_start": {
      draft.endStreaming();
      const item = draft.tool(event.data.toolCallId, event.data.name, draft.speaker(event.data));
      // A card the hello snapshot created ahead of the replay belongs here, after the text before it.
      draft.moveToEnd(item.id);
      v.liveBlocks = { ...v.liveBlocks, [event.data.index]: item.id };
      return;
    }
    case "tool_call_delta": {
      const { toolCallId, partialJson, offset } = event.data;
      const item = draft.tool(toolCallId, "", draft.speaker(event.data));
      if (offset !== undefined) mergeArgs(draft, item, offset, partialJson);
      else draft.put({ ...item, argsJson: item.argsJson + partialJson });
      return;
    }
    case "tool_call_end": {
      const item = draft.tool(event.data.toolCallId, event.data.name, draft.speaker(event.data));
      draft.put({ ...item, name: event.data.name, input: event.data.input, phase: "pending" });
      return;
    }
    case "tool_result": {
      const { toolCallId, name, content, isError, truncated } = event.data;
      const item = draft.tool(toolCallId, name, draft.speaker(event.data));
      draft.put({ ...item, phase: isError ? "error" : "done", result: { content, isError, truncated } });
      v.liveBlocks = {};
      return;
    }
    case "interaction_resolved":
      resolve(draft, event.data);
      v.liveBlocks = {};
      return;
    case "interaction_extended":
      extend(draft, event.data);
      return;
    case "approval_counted":
      countApproval(draft, event.data);
      return;
    case "session_status":
      if (event.data.status !== "running") draft.endStreaming();
      v.status = event.data.status;
      v.mode = event.data.mode;
      v.error = event.data.error;
      return;
    case "turn_restarted":
      draft.dropLiveBlocks();
      draft.append(
        notice(event.seq, "info", "The model call was interrupted; it restarted from the saved transcript."),
      );
      return;
    case "error":
      draft.append(notice(event.seq, "error", event.data.message));
      return;
    case "model_retry":
      v.modelRetry = { attempt: event.data.attempt, retryAt: event.data.retryAt };
      draft.append(
        notice(
          event.seq,
          "info",
          `The model is unavailable (${event.data.code}: ${event.data.message}); retrying at ${clockTime(event.data.retryAt)} (attempt ${event.data.attempt}).`,
        ),
      );
      return;
    case "context_compacted":
      draft.append(
        notice(
          event.seq,
          "info",
          event.data.action === "summarized"
            ? `Earlier conversation (${event.data.summarizedMessages} messages) was summarized by the model to stay within its context window.`
            : `${event.data.clearedResults} old tool result(s) were cleared to stay within the model's context window.`,
        ),
      );
      return;
    case "turn_notice":
      draft.append(notice(event.seq, "info", event.data.message));
      return;
    case "session_expiring":
      draft.append(
        notice(
          event.seq,
          "info",
          `This session has been idle and will be deleted at ${new Date(event.data.expiresAt).toLocaleString()} unless it is used before.`,
        ),
      );
      return;
    case "done":
      finishTurn(draft, event.data.stopReason, event.seq, event.data.by);
      return;
    case "agent_started":
    case "agent_completed":
      draft.endStreaming();
      draft.view.liveBlocks = {};
      draft.append(agentNotice(event));
      return;
  }
}

function applyDelta(draft: ViewDraft, frame: DeltaFrame): void {
  if (frame.toolCallId)
    mergeArgs(draft, draft.tool(frame.toolCallId, "", draft.speaker(frame)), frame.offset, frame.text);
  else mergeBlockText(draft, frame);
}

/** Where a piece of streamed text goes, and who speaks it (a live frame or a stored event). */
interface TextPieceAt {
  turnId: string;
  call: number;
  index: number;
  offset: number;
  text: string;
  agent?: string | undefined;
  depth?: number | undefined;
}

/** One content block of one model call is one item, whichever copy of its text arrives first. */
function mergeBlockText(draft: ViewDraft, at: TextPieceAt): void {
  const { turnId, call, index, offset, text: piece } = at;
  const id = `text:${turnId}:${call}:${index}`;
  let item = draft.get(id);
  if (item?.kind !== "assistant") {
    const agent = draft.speaker(at);
    item = { kind: "assistant", id, turnId, text: "", ahead: [], streaming: true, agent };
    draft.append(item);
    draft.view.liveBlocks = { ...draft.view.liveBlocks, [index]: id };
  }
  const merged = mergeText(item, offset, piece);
  if (merged !== item) draft.put({ ...item, text: merged.text, ahead: merged.ahead });
}

function mergeArgs(draft: ViewDraft, item: ToolItem, offset: number, piece: string): void {
  const merged = mergeText({ text: item.argsJson, ahead: item.argsAhead }, offset, piece);
  if (merged.text !== item.argsJson || merged.ahead !== item.argsAhead)
    draft.put({ ...item, argsJson: merged.text, argsAhead: merged.ahead });
}

// Events stored before interactions had ids of their own carry only the tool call's id, which was it.
// (Kept here rather than imported, so the page bundles no schema code.)
function interactionIdOf(data: { toolCallId: string; interactionId?: string | undefined }): string {
  return data.interactionId ?? data.toolCallId;
}

/** Adds a prompt to its tool call's card; one already known (snapshot, then replay) keeps its state. */
function addInteraction(draft: ViewDraft, interaction: InteractionState): void {
  const item = draft.tool(interaction.toolCallId, interaction.toolName, draft.speaker(interaction));
  if (item.interactions.some((known) => known.id === interaction.id)) return;
  const phase = item.phase === "streaming" ? "pending" : item.phase;
  draft.put({ ...item, phase, interactions: [...item.interactions, interaction] });
}

function resolve(draft: ViewDraft, resolution: InteractionResolution): void {
  const item = draft.get(`tool:${resolution.toolCallId}`);
  if (item?.kind !== "tool") return;
  const id = interactionIdOf(resolution);
  const interactions = item.interactions.map((known) =>
    known.id === id && !known.resolution ? { ...known, resolution } : known,
  );
  if (interactions.some((known, i) => known !== item.interactions[i])) draft.put({ ...item, interactions });
}

/** "Give me more time" on any device: the open card's deadline (and so its countdown) moves. */
function extend(
  draft: ViewDraft,
  data: { toolCallId: string; interactionId: string; expiresAt: number },
): void {
  const item = draft.get(`tool:${data.toolCallId}`);
  if (item?.kind !== "tool") return;
  const interactions = item.interactions.map((known) =>
    known.id === data.interactionId && !known.resolution ? { ...known, expiresAt: data.expiresAt } : known,
  );
  if (interactions.some((known, i) => known !== item.interactions[i])) draft.put({ ...item, interactions });
}

/** One more distinct approval of a card that needs several, on any device: "1 of 2 approvals". */
function countApproval(
  draft: ViewDraft,
  data: { toolCallId: string; interactionId: string; approvals: ApprovalCount },
): void {
  const item = draft.get(`tool:${data.toolCallId}`);
  if (item?.kind !== "tool") return;
  const interactions = item.interactions.map((known) =>
    known.id === data.interactionId && !known.resolution ? { ...known, approvals: data.approvals } : known,
  );
  if (interactions.some((known, i) => known !== item.interactions[i])) draft.put({ ...item, interactions });
}

/** The prompt of a tool call still waiting for an answer, if any. */
export function openInteraction(item: ToolItem): InteractionState | null {
  return item.interactions.find((interaction) => !interaction.resolution) ?? null;
}

/** Moves both stacks: labels always, the current stack only past what the snapshot already showed. */
function applyStack(draft: ViewDraft, event: SessionEvent): void {
  if (event.type !== "agent_started" && event.type !== "agent_completed") return;
  const v = draft.view;
  v.speakers = applyStackEvent(v.speakers, event);
  if (event.seq > v.stackAsOf) v.stack = applyStackEvent(v.stack, event);
}

// `max_tokens` and `refusal` come with their own `turn_notice`, which says more.
const STOP_NOTICES: Record<string, string> = {
  cancelled: "Turn cancelled",
  iteration_limit: "The turn stopped after too many tool rounds",
  rejected: "Turn stopped after a denial",
};

function finishTurn(draft: ViewDraft, stopReason: string, seq: number, by: string | null | undefined): void {
  draft.endStreaming();
  draft.view.liveBlocks = {};
  const text = STOP_NOTICES[stopReason];
  if (text) draft.append(notice(seq, "info", `${text}${namesSomeone(by) ? ` by ${by}` : ""}.`));
}

function clockTime(at: number): string {
  return new Date(at).toLocaleTimeString();
}

function notice(seq: number, level: NoticeItem["level"], text: string): NoticeItem {
  return { kind: "notice", id: `notice:${seq}`, level, text };
}

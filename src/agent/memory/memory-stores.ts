// The loop's small stores in memory (events, inbox, tool results, rules, deadlines), and
// `createMemoryStores`, which wires every port so `AgentLoop` runs without a Durable Object.
import type { EventData, EventType, SessionEvent } from "../../protocol/wire/events";
import type { DeltaFrame } from "../../protocol/wire/frames";
import type {
  DeadlineScheduler,
  EventSink,
  MessageQueue,
  PermissionRuleStore,
  QueuedMessage,
  ToolResultRecord,
  ToolResultStore,
} from "../ports";
import { MemoryFrameStore } from "./memory-frame-store";
import { MemoryInteractionStore } from "./memory-interaction-store";
import { MemoryTranscriptStore } from "./memory-transcript-store";
import { MemoryTurnStore } from "./memory-turn-store";

export class MemoryEventSink implements EventSink {
  readonly events: SessionEvent[] = [];
  /** Live deltas sent (never stored), in order. */
  readonly live: DeltaFrame[] = [];

  constructor(private readonly now: () => number) {}

  append<T extends EventType>(type: T, data: EventData<T>): SessionEvent {
    const event = { seq: this.events.length + 1, at: this.now(), type, data: structuredClone(data) };
    this.events.push(event as SessionEvent);
    return structuredClone(event) as SessionEvent;
  }

  /** Kept for the tests to read, as if one device had it. */
  sendLive(frame: DeltaFrame): number {
    this.live.push(structuredClone(frame));
    return 1;
  }
}

export class MemoryMessageQueue implements MessageQueue {
  readonly #queue: QueuedMessage[] = [];

  push(message: QueuedMessage): void {
    this.#queue.push({ ...message });
  }

  shift(): QueuedMessage | null {
    return this.#queue.shift() ?? null;
  }

  size(): number {
    return this.#queue.length;
  }
}

export class MemoryToolResultStore implements ToolResultStore {
  readonly #results = new Map<string, ToolResultRecord>();
  readonly #started = new Set<string>();

  get(toolCallId: string): ToolResultRecord | null {
    const record = this.#results.get(toolCallId);
    return record ? { ...record } : null;
  }

  put(record: ToolResultRecord): void {
    // First result wins, as in SQLite's ON CONFLICT DO NOTHING.
    if (!this.#results.has(record.toolCallId)) this.#results.set(record.toolCallId, { ...record });
  }

  markStarted(toolCallId: string): void {
    this.#started.add(toolCallId);
  }

  clearStarted(toolCallId: string): void {
    this.#started.delete(toolCallId);
  }

  wasStarted(toolCallId: string): boolean {
    return this.#started.has(toolCallId);
  }
}

export class MemoryPermissionRuleStore implements PermissionRuleStore {
  readonly #allowed = new Set<string>();

  allowed(): Set<string> {
    return new Set(this.#allowed);
  }

  allow(toolName: string): void {
    this.#allowed.add(toolName);
  }
}

/** Keeps the watchdog; there is no alarm to re-arm, the test drives deadlines itself. */
export class MemoryDeadlines implements DeadlineScheduler {
  #watchdog: number | null = null;

  rearm(): void {}

  setStreaming(): void {}

  watchdog(): number | null {
    return this.#watchdog;
  }

  setWatchdog(at: number | null): void {
    this.#watchdog = at;
  }
}

export interface MemoryStores {
  events: MemoryEventSink;
  frames: MemoryFrameStore;
  transcript: MemoryTranscriptStore;
  queue: MemoryMessageQueue;
  turn: MemoryTurnStore;
  interactions: MemoryInteractionStore;
  results: MemoryToolResultStore;
  rules: MemoryPermissionRuleStore;
  deadlines: MemoryDeadlines;
}

/** Every store the loop needs, in memory, sharing one clock. */
export function createMemoryStores(
  options: { now?: () => number; systemPrompt?: string } = {},
): MemoryStores {
  const now = options.now ?? (() => Date.now());
  const events = new MemoryEventSink(now);
  const frames = new MemoryFrameStore();
  return {
    events,
    frames,
    transcript: new MemoryTranscriptStore(frames),
    queue: new MemoryMessageQueue(),
    turn: new MemoryTurnStore(events, options.systemPrompt ?? "You are a helpful assistant."),
    interactions: new MemoryInteractionStore(),
    results: new MemoryToolResultStore(),
    rules: new MemoryPermissionRuleStore(),
    deadlines: new MemoryDeadlines(),
  };
}

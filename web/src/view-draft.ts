// Copy-on-write working copy of a session view: the reducer mutates this, never its input, so one
// action copies the containers once and gives every touched item a new object.
import type { SessionView, Speaker, ToolItem, TranscriptItem } from "./session-view";

export class ViewDraft {
  readonly view: SessionView;
  private readonly items: Map<string, TranscriptItem>;
  private order: string[];

  constructor(base: SessionView) {
    this.items = new Map(base.items);
    this.order = [...base.order];
    this.view = { ...base };
  }

  get(id: string): TranscriptItem | undefined {
    return this.items.get(id);
  }

  put(item: TranscriptItem): void {
    this.items.set(item.id, item);
  }

  append(item: TranscriptItem): void {
    if (!this.items.has(item.id)) this.order.push(item.id);
    this.items.set(item.id, item);
  }

  /** Moves an item to the end of the transcript (it was placed early, before its history). */
  moveToEnd(id: string): void {
    if (!this.items.has(id)) return;
    this.order = this.order.filter((other) => other !== id);
    this.order.push(id);
  }

  /** The card for a tool call, created on first sight so prompts never lack a place to render. */
  tool(toolCallId: string, name: string, agent: Speaker = this.speaker()): ToolItem {
    const existing = this.items.get(`tool:${toolCallId}`);
    if (existing?.kind === "tool") return existing;
    const item: ToolItem = {
      kind: "tool",
      id: `tool:${toolCallId}`,
      toolCallId,
      name,
      argsJson: "",
      argsAhead: [],
      input: undefined,
      phase: "streaming",
      result: null,
      interactions: [],
      agent,
    };
    this.append(item);
    return item;
  }

  /**
   * The agent that produced an event: its mark when it has one (null for the main agent), else —
   * for events stored before marks — the stack folded up to the event being applied.
   */
  speaker(mark: { agent?: string | undefined; depth?: number | undefined } = {}): Speaker {
    if (mark.agent !== undefined && mark.depth !== undefined) return mark.depth === 0 ? null : mark.agent;
    return this.view.speakers.at(-1)?.agent ?? null;
  }

  /** Text blocks of the model call in flight are complete once a later block or a pause begins. */
  endStreaming(): void {
    for (const id of Object.values(this.view.liveBlocks)) {
      const item = this.items.get(id);
      if (item?.kind === "assistant" && item.streaming) this.items.set(id, { ...item, streaming: false });
    }
  }

  dropLiveBlocks(): void {
    const dropped = new Set(Object.values(this.view.liveBlocks));
    this.order = this.order.filter((id) => !dropped.has(id));
    for (const id of dropped) this.items.delete(id);
    this.view.liveBlocks = {};
  }

  finish(): SessionView {
    this.view.items = this.items;
    this.view.order = this.order;
    return this.view;
  }
}

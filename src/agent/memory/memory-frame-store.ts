// The agent stack in memory, behaving like the SQLite store (same contract).
import type { AgentOutcome } from "../../protocol/session/agents";
import type { FrameRecord, FrameStore } from "../ports";

export class MemoryFrameStore implements FrameStore {
  readonly #frames = new Map<string, FrameRecord>();

  stack(): FrameRecord[] {
    return [...this.#frames.values()]
      .filter((frame) => frame.status === "active")
      .sort((a, b) => a.depth - b.depth)
      .map((frame) => ({ ...frame }));
  }

  top(): FrameRecord | null {
    return this.stack().at(-1) ?? null;
  }

  get(frameId: string): FrameRecord | null {
    const frame = this.#frames.get(frameId);
    return frame ? { ...frame } : null;
  }

  push(frame: Omit<FrameRecord, "status" | "iterations" | "endedAt">): void {
    if (this.#frames.has(frame.frameId)) throw new Error(`frame ${frame.frameId} already exists`);
    for (const other of this.#frames.values()) {
      if (other.parentToolCallId === frame.parentToolCallId)
        throw new Error(`tool call ${frame.parentToolCallId} already has a frame`);
    }
    this.#frames.set(frame.frameId, { ...frame, status: "active", iterations: 0, endedAt: null });
  }

  countModelCall(frameId: string): void {
    const frame = this.#frames.get(frameId);
    if (frame) frame.iterations += 1;
  }

  end(frameId: string, outcome: AgentOutcome, at: number): boolean {
    const frame = this.#frames.get(frameId);
    if (frame?.status !== "active") return false;
    frame.status = outcome;
    frame.endedAt = at;
    return true;
  }
}

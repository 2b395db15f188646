// Session status, mode and the current turn in memory, behaving like the SQLite store.
import type { PermissionMode, SessionStatus } from "../../protocol/session/session";
import type { EventSink, TurnRecord, TurnStore } from "../ports";

export class MemoryTurnStore implements TurnStore {
  #status: SessionStatus = "idle";
  #error: string | null = null;
  #mode: PermissionMode = "default";
  #turn: TurnRecord | null = null;
  #modelCalls = 0;

  constructor(
    private readonly events: EventSink,
    private readonly prompt: string,
  ) {}

  status(): SessionStatus {
    return this.#status;
  }

  mode(): PermissionMode {
    return this.#mode;
  }

  current(): TurnRecord | null {
    return this.#turn ? structuredClone(this.#turn) : null;
  }

  setStatus(status: SessionStatus, error: string | null = null): void {
    if (status === this.#status && error === this.#error) return;
    this.#status = status;
    this.#error = error;
    this.events.append("session_status", { status, mode: this.#mode, error });
  }

  setMode(mode: PermissionMode, by: string | null = null): void {
    if (mode === this.#mode) return;
    this.#mode = mode;
    this.events.append("session_status", {
      status: this.#status,
      mode,
      error: this.#error,
      ...(by ? { by } : {}),
    });
  }

  save(turn: TurnRecord): void {
    this.#turn = structuredClone(turn);
  }

  end(): void {
    this.#turn = null;
  }

  nextModelCall(): number {
    return this.#modelCalls++;
  }

  systemPrompt(): string {
    return this.prompt;
  }
}

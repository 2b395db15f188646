// Session status, permission mode and the current turn, kept in `meta` so a fresh instance
// (after eviction or deploy) knows exactly where the session stands.
import * as z from "zod";
import type { EventSink, TurnRecord, TurnStore } from "../../agent/ports";
import type { MetaStore } from "../../objects/meta-store";
import { lazySchema } from "../../protocol/lazy-schema";
import { PermissionMode, SessionStatus } from "../../protocol/session/session";

/** Built once: the meta store keeps a number read with the same schema. */
const ModelCalls = lazySchema(() => z.number().int());

const TurnRecordSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    messageId: z.string(),
    iterations: z.number().int(),
    usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }),
    pausedForPerson: z.boolean(),
    callInFlight: z.boolean().default(false),
    restarts: z.number().int().default(0),
    retry: z
      .object({
        attempt: z.number().int(),
        since: z.number(),
        at: z.number(),
        code: z.string(),
        message: z.string(),
      })
      .optional(),
    continuePaused: z.boolean().optional(),
  }),
);

export class SqlTurnStore implements TurnStore {
  constructor(
    private readonly meta: MetaStore,
    private readonly events: EventSink,
  ) {}

  status(): SessionStatus {
    return this.meta.get("status", SessionStatus) ?? "idle";
  }

  error(): string | null {
    return this.meta.string("last_error") ?? null;
  }

  mode(): PermissionMode {
    return this.meta.get("mode", PermissionMode) ?? "default";
  }

  current(): TurnRecord | null {
    return this.meta.get("turn", TurnRecordSchema);
  }

  setStatus(status: SessionStatus, error: string | null = null): void {
    if (status === this.status() && error === this.error()) return;
    this.meta.set("status", status);
    if (error) this.meta.set("last_error", error);
    else this.meta.delete("last_error");
    this.events.append("session_status", { status, mode: this.mode(), error });
  }

  setMode(mode: PermissionMode, by: string | null = null): void {
    if (mode === this.mode()) return;
    this.meta.set("mode", mode);
    this.events.append("session_status", {
      status: this.status(),
      mode,
      error: this.error(),
      ...(by ? { by } : {}),
    });
  }

  save(turn: TurnRecord): void {
    this.meta.set("turn", turn);
  }

  end(): void {
    this.meta.delete("turn");
  }

  nextModelCall(): number {
    const next = this.meta.get("model_calls", ModelCalls) ?? 0;
    this.meta.set("model_calls", next + 1);
    return next;
  }

  systemPrompt(): string {
    return this.meta.string("system_prompt") ?? DEFAULT_SYSTEM_PROMPT;
  }
}

export const DEFAULT_SYSTEM_PROMPT =
  "You are a helpful assistant working through Parley. When you need a decision from the user, " +
  "use the AskUserQuestion tool with clear multiple-choice options rather than asking in prose. " +
  "Some tools need the user's approval; if a call is denied, respect the reason and adapt.";

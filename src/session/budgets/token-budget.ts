// A session's model tokens per UTC day (SESSION_TOKEN_BUDGET): every model call's input and output
// tokens, as the model reported them, are counted in `meta`; once the day's budget is spent, no
// request may start a model call (409 budget_exhausted) and the loop ends its turn instead.

import * as z from "zod";
import type { ModelBudget } from "../../agent/model-budget";
import { logSecurityEvent, type SecurityFields } from "../../log/security-log";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "../../model/model-client";
import type { MetaStore } from "../../objects/meta-store";
import { Refusal } from "../../objects/refusal";
import type { Access } from "../../protocol/access/access";
import { lazySchema } from "../../protocol/lazy-schema";
import type { SessionCommand } from "../../protocol/wire/commands";

const DAY_MS = 86_400_000;
const USAGE_KEY = "model_tokens";
const DayUsage = lazySchema(() => z.object({ day: z.number().int(), tokens: z.number().int().min(0) }));

/** Commands that start a model call: refused once the budget is spent. */
const STARTS_A_MODEL_CALL: ReadonlySet<SessionCommand["type"]> = new Set(["send_message", "retry_now"]);

export class SessionTokenBudget implements ModelBudget {
  constructor(
    private readonly meta: MetaStore,
    private readonly now: () => number,
    /** Tokens per UTC day. */
    readonly limit: number,
    private readonly logIds: () => SecurityFields,
  ) {}

  /** Tokens counted today (UTC). */
  used(): number {
    const stored = this.meta.get(USAGE_KEY, DayUsage);
    return stored?.day === this.today() ? stored.tokens : 0;
  }

  /** Adds one model call's tokens to today's count. */
  charge(tokens: number): void {
    if (tokens <= 0) return;
    this.meta.set(USAGE_KEY, { day: this.today(), tokens: this.used() + tokens });
  }

  refusal(): string | null {
    const used = this.used();
    return used < this.limit ? null : this.explain(used);
  }

  refused(): void {
    logSecurityEvent("budget_exhausted", { ...this.logIds(), reason: "model_call" });
  }

  /** Refuses, with `409 budget_exhausted`, a command that would start a model call once the day's budget is spent. */
  refuseCommand(command: SessionCommand, access: Access): void {
    if (!STARTS_A_MODEL_CALL.has(command.type)) return;
    const refusal = this.refusal();
    if (!refusal) return;
    logSecurityEvent("budget_exhausted", {
      ...this.logIds(),
      linkId: access.linkId,
      reason: command.type,
      status: 409,
    });
    throw Refusal.from({ code: "budget_exhausted", message: refusal });
  }

  private explain(used: number): string {
    const resets = new Date((this.today() + 1) * DAY_MS).toISOString();
    return `This session has used its model budget for today (${used} of ${this.limit} tokens, SESSION_TOKEN_BUDGET); the model can be called again after ${resets}`;
  }

  private today(): number {
    return Math.floor(this.now() / DAY_MS);
  }
}

/**
 * `model`, with every call's reported usage charged to `budget`, also for a call that fails or is
 * cut off after the model reported it; and refused outright (never sent) once the budget is spent.
 */
export function budgetedModel(model: ModelClient, budget: SessionTokenBudget): ModelClient {
  return {
    name: model.name,
    demo: model.demo,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      const refusal = budget.refusal();
      if (refusal) {
        budget.refused();
        throw new Error(refusal);
      }
      const usage = { input: 0, output: 0 };
      try {
        for await (const event of model.stream(request, signal)) {
          countUsage(usage, event);
          yield event;
        }
      } finally {
        budget.charge(usage.input + usage.output);
      }
    },
  };
}

// message_start reports the input (cache reads and writes are input too); message_delta's counts
// are cumulative, so the last one seen is the call's.
function countUsage(usage: { input: number; output: number }, event: ModelStreamEvent): void {
  if (event.type === "message_start") {
    usage.input = inputTokens(event.message.usage);
    usage.output = event.message.usage.output_tokens ?? 0;
  } else if (event.type === "message_delta") {
    if (event.usage.output_tokens != null) usage.output = event.usage.output_tokens;
    if (event.usage.input_tokens != null) usage.input = inputTokens(event.usage);
  }
}

function inputTokens(usage: {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}): number {
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}

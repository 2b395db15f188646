// The durable agent loop (DESIGN §4). Every step reads its state from the stores and writes its
// progress back before the next await, so any instance can continue a turn another one started.
import { ModelError } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import { buildModelRequest } from "./model-request";
import type { TurnRecord } from "./ports";
import { cancelPending } from "./resolve-interaction";
import { StreamAssembler } from "./stream-assembler";
import { settleToolCalls } from "./tool-phase";
import { recordResult, resultBlocks, toolUses } from "./tool-results";

// The watchdog deadline is pushed forward at most this often while a model call makes progress.
const WATCHDOG_REFRESH_MS = 30_000;

interface LiveRun {
  controller: AbortController;
  assembler: StreamAssembler | null;
}

export class AgentLoop {
  // INVARIANT: these describe only this instance's live runner. Storage says where the turn is;
  // after eviction they start empty and the watchdog alarm restarts a turn left `running`.
  private live: LiveRun | null = null;
  private rerun = false;

  constructor(private readonly deps: AgentDeps) {}

  /** True while this instance is driving a turn (the watchdog uses it to tell a lost call from a slow one). */
  get isRunning(): boolean {
    return this.live !== null;
  }

  /** Continues the session as far as it can go. Single flight: a call during a run makes that run look again. */
  async advance(): Promise<void> {
    if (this.live) {
      this.rerun = true;
      return;
    }
    this.live = { controller: new AbortController(), assembler: null };
    this.noticeLostRun();
    try {
      do {
        this.rerun = false;
        if (this.live.controller.signal.aborted)
          this.live = { controller: new AbortController(), assembler: null };
        await this.drive(this.live);
      } while (this.rerun);
    } finally {
      this.live = null;
    }
  }

  /**
   * A turn persisted as `running` while no runner is live here was lost with the instance that ran
   * it (a Durable Object has one instance). Its streamed output is discarded and the model call is
   * re-issued from the stored transcript; devices hear it first so they drop the partial text.
   */
  private noticeLostRun(): void {
    const turn = this.deps.turn.current();
    if (!turn || this.deps.turn.status() !== "running") return;
    this.deps.events.append("turn_restarted", {
      turnId: turn.id,
      reason:
        "The server lost the turn in flight (restart or eviction); continuing from the stored transcript.",
    });
  }

  /**
   * Ends the current turn now: a live model stream is aborted (its text so far is kept), pending
   * interactions and unrun tools get cancelled results, and the session goes idle.
   */
  cancel(deviceId: string | null): boolean {
    const { deps } = this;
    const turn = deps.turn.current();
    if (!turn) return false;
    const live = this.live;
    const partial = live?.assembler?.partialText() ?? [];
    live?.controller.abort();
    if (live) live.assembler = null;
    if (partial.length > 0) deps.transcript.append("assistant", partial);
    cancelPending(deps, deviceId);
    const last = deps.transcript.last();
    if (last?.role === "assistant") {
      const uses = toolUses(last.content);
      for (const use of uses) {
        if (!deps.results.get(use.id)) {
          // A tool cut off mid-run may have had its effect; the model must not assume it did not.
          const content = deps.results.wasStarted(use.id)
            ? `User cancelled the turn while ${use.name} was running; it was stopped and its effect is unknown.`
            : `User cancelled the turn before ${use.name} ran; the tool was not run.`;
          recordResult(deps, use.id, use.name, { content, isError: true });
        }
      }
      const blocks = resultBlocks(deps, uses);
      if (blocks && blocks.length > 0) deps.transcript.append("user", blocks);
    }
    this.endTurn(turn, "cancelled", null);
    return true;
  }

  private async drive(live: LiveRun): Promise<void> {
    const { deps } = this;
    const signal = live.controller.signal;
    for (;;) {
      if (signal.aborted) return;
      const turn = deps.turn.current();
      if (!turn) {
        if (!this.beginNextTurn()) return;
        continue;
      }
      // Until this turn pauses or ends, a lost instance is noticed by the watchdog alarm.
      deps.deadlines.setWatchdog(deps.clock.now() + deps.settings.watchdogMs);
      if (deps.turn.status() !== "running" && deps.interactions.pending().length === 0) {
        deps.turn.setStatus("running");
      }
      const last = deps.transcript.last();
      if (last?.role === "assistant") {
        const uses = toolUses(last.content);
        if (uses.length > 0) {
          const outcome = await settleToolCalls(deps, uses, signal);
          if (outcome === "aborted") return;
          if (outcome === "waiting") {
            deps.turn.setStatus("awaiting_input");
            deps.deadlines.setWatchdog(null);
            return;
          }
          const blocks = resultBlocks(deps, uses);
          if (!blocks) throw new Error("tool phase reported complete with a result missing");
          deps.transcript.append("user", blocks);
          continue;
        }
        // An assistant message without tool calls ends the turn (the stop was recorded then).
        this.endTurn(turn, "end_turn", null);
        continue;
      }
      if (turn.iterations >= deps.settings.maxTurnIterations) {
        deps.events.append("error", {
          code: "iteration_limit",
          message: `The turn stopped after ${turn.iterations} model calls (the limit per turn).`,
        });
        this.endTurn(turn, "iteration_limit", null);
        continue;
      }
      const stop = await this.callModel(live, turn);
      if (stop === "aborted") return;
    }
  }

  private beginNextTurn(): boolean {
    const { deps } = this;
    const next = deps.inbox.shift();
    if (!next) return false;
    const turn: TurnRecord = {
      id: deps.newId("turn"),
      messageId: next.id,
      iterations: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      pausedForPerson: false,
    };
    deps.transcript.append("user", [{ type: "text", text: next.text }]);
    deps.turn.begin(turn);
    deps.events.append("turn_started", { turnId: turn.id, messageId: next.id });
    deps.turn.setStatus("running");
    return true;
  }

  /** One model call: stream to every device, then persist the whole assistant message at once. */
  private async callModel(live: LiveRun, turn: TurnRecord): Promise<"continue" | "aborted"> {
    const { deps } = this;
    const signal = live.controller.signal;
    const current: TurnRecord = { ...turn, iterations: turn.iterations + 1 };
    deps.turn.update(current);
    deps.turn.setStatus("running");
    let watchdogAt = deps.clock.now();

    const request = buildModelRequest({
      model: deps.settings.model,
      maxTokens: deps.settings.maxTokens,
      systemPrompt: deps.turn.systemPrompt(),
      tools: [...deps.tools.forModel(), ...deps.kinds.toolSpecs()],
      messages: deps.transcript.messages(),
      pausedForPerson: current.pausedForPerson,
    });
    const assembler = new StreamAssembler((output) => {
      // Stream outputs carry their event type as a tag; the event payload is the rest.
      switch (output.type) {
        case "text_delta":
          deps.events.append("text_delta", { turnId: turn.id, index: output.index, text: output.text });
          break;
        case "tool_call_start": {
          const { toolCallId, name, index } = output;
          deps.events.append("tool_call_start", { turnId: turn.id, toolCallId, name, index });
          break;
        }
        case "tool_call_delta":
          deps.events.append("tool_call_delta", {
            toolCallId: output.toolCallId,
            partialJson: output.partialJson,
          });
          break;
        case "tool_call_end":
          deps.events.append("tool_call_end", {
            toolCallId: output.toolCallId,
            name: output.name,
            input: output.input,
          });
      }
    }, deps.clock.now);
    live.assembler = assembler;

    try {
      for await (const event of deps.model.stream(request, signal)) {
        if (signal.aborted) return "aborted";
        assembler.push(event);
        const now = deps.clock.now();
        if (now - watchdogAt >= WATCHDOG_REFRESH_MS) {
          watchdogAt = now;
          deps.deadlines.setWatchdog(now + deps.settings.watchdogMs);
        }
      }
    } catch (error) {
      if (signal.aborted) return "aborted";
      this.failTurn(current, error);
      return "continue";
    } finally {
      live.assembler = null;
    }
    if (signal.aborted) return "aborted";

    const message = assembler.finish();
    const usage = {
      input_tokens: current.usage.input_tokens + message.usage.input_tokens,
      output_tokens: current.usage.output_tokens + message.usage.output_tokens,
    };
    deps.turn.update({ ...current, usage });
    if (message.content.length > 0) deps.transcript.append("assistant", message.content);
    if (toolUses(message.content).length === 0) {
      this.endTurn({ ...current, usage }, message.stopReason ?? "end_turn", null);
    }
    return "continue";
  }

  private failTurn(turn: TurnRecord, error: unknown): void {
    const { deps } = this;
    const code = error instanceof ModelError ? error.code : "internal";
    const message = error instanceof Error ? error.message : String(error);
    deps.events.append("error", { code: `model_${code}`, message });
    this.endTurn(turn, "error", `The model call failed: ${message}`);
  }

  private endTurn(turn: TurnRecord, stopReason: string, error: string | null): void {
    const { deps } = this;
    deps.events.append("done", { turnId: turn.id, stopReason, usage: turn.usage });
    deps.turn.end();
    deps.deadlines.setWatchdog(null);
    deps.turn.setStatus(error ? "failed" : "idle", error);
  }
}

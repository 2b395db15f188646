// The durable agent loop (docs/architecture.md#the-turn-loop). Every step reads its state from the stores and writes its
// progress back before the next await, so any instance can continue a turn another one started.

import type { ToolUseBlockParam } from "../model/model-client";
import { answererName, type Decider } from "../protocol/cards/decider";
import type { DeltaFrame } from "../protocol/wire/frames";
import type { AgentDeps } from "./agent-deps";
import { abandonFrame, endedByPersonResult, unwindStack } from "./agent-stack";
import { recordReply } from "./call-reply";
import { fitContext } from "./context-budget";
import { topMark } from "./frame-mark";
import { buildModelRequest } from "./model-request";
import { onModelFailure, passesWithTime } from "./model-retry";
import { nextStep, readLoopState } from "./next-step";
import { appendOutput } from "./output-events";
import type { FrameRecord, TurnRecord } from "./ports";
import { cancelPending, pendingOnTop, SYSTEM_DECIDER } from "./resolve-interaction";
import { frameRequest } from "./stack-tools";
import { StreamAssembler } from "./stream-assembler";
import { settleToolStep } from "./tool-step";
import { closeOpenToolUses, endTurn, failTurn } from "./turn-ending";
import { errorMessage, failRunningTurn } from "./turn-failure";

// The watchdog deadline is pushed forward at most this often while a model call makes progress.
const WATCHDOG_REFRESH_MS = 30_000;

/** Why a live run was aborted: a person cancelled, or the watchdog found the stream silent. */
type AbortReason = "cancelled" | "stalled";

interface LiveRun {
  controller: AbortController;
  assembler: StreamAssembler | null;
}

export class AgentLoop {
  // INVARIANT: these describe only this instance's live runner. Storage says where the turn is;
  // after eviction they start empty and the stored `callInFlight` marker tells a lost call.
  private live: LiveRun | null = null;
  private rerun = false;

  constructor(private readonly deps: AgentDeps) {}

  /** Continues the session as far as it can go. Single flight: a call during a run makes that run look again. */
  async advance(): Promise<void> {
    if (this.live) {
      this.rerun = true;
      return;
    }
    this.live = { controller: new AbortController(), assembler: null };
    try {
      do {
        this.rerun = false;
        if (this.live.controller.signal.aborted)
          this.live = { controller: new AbortController(), assembler: null };
        await this.driveSafely(this.live);
      } while (this.rerun);
    } finally {
      this.live = null;
    }
  }

  /**
   * The alarm's check on the running turn: resumes one nobody drives here (its instance was lost,
   * or it was answered just before a crash), and aborts a live stream silent past the watchdog so
   * the call is re-issued. Returns true when `advance()` should run.
   */
  checkWatchdog(now: number): boolean {
    const { deps } = this;
    if (!deps.turn.current()) {
      if (deps.deadlines.watchdog() !== null) deps.deadlines.setWatchdog(null);
      return false;
    }
    // A parent's open cards do not hold its delegated agent: only the top frame's do.
    if (!this.live) return pendingOnTop(deps).length === 0;
    const watchdog = deps.deadlines.watchdog();
    if (watchdog !== null && watchdog <= now) {
      this.rerun = true;
      this.live.controller.abort("stalled" satisfies AbortReason);
    }
    return false;
  }

  /** Stops a live run without writing anything (the session is being erased). */
  halt(): void {
    this.rerun = false;
    this.live?.controller.abort("cancelled" satisfies AbortReason);
  }

  /**
   * Ends the current turn now and unwinds the agent stack: a live model stream is aborted (its
   * text so far is kept), pending interactions and unrun tools get cancelled results, every
   * delegated agent is popped with a "cancelled" result for its parent, and the session goes idle.
   * `stopReason` is `rejected` when a person denied a tool and chose to stop the turn (OpenCode's
   * "reject and stop"); `decider` is who did, as the server knows them.
   */
  cancel(
    deviceId: string | null,
    stopReason: "cancelled" | "rejected" = "cancelled",
    decider: Decider | null = null,
  ): boolean {
    const { deps } = this;
    const turn = deps.turn.current();
    if (!turn && !deps.frames.top()) return false;
    const by = answererName(decider);
    this.stopLiveRun(deviceId, null, decider ?? SYSTEM_DECIDER);
    // A tool cut off mid-run may have had its effect; the model must not assume it did not.
    const stopped = stopReason === "cancelled" ? "cancelled the turn" : "denied a tool and stopped the turn";
    const explain = (use: ToolUseBlockParam, started: boolean) =>
      started
        ? `User ${stopped} while ${use.name} was running; it was stopped and its effect is unknown.`
        : `User ${stopped} before ${use.name} ran; the tool was not run.`;
    closeOpenToolUses(deps, explain);
    unwindStack(deps, "cancelled", explain);
    if (turn) endTurn(deps, turn, stopReason, null, by);
    return true;
  }

  /**
   * "End this agent": the top delegated agent is stopped (its stream, tools and cards too) and
   * popped; its parent gets a result saying the person ended it, and resumes at once. False when
   * the main agent holds the conversation.
   */
  endAgent(deviceId: string | null, decider: Decider | null = null): FrameRecord | null {
    const { deps } = this;
    const frame = deps.frames.top();
    if (!frame) return null;
    // Only this agent's cards are cancelled: its parent's stay open for the person to answer.
    if (this.stopLiveRun(deviceId, frame.frameId, decider ?? SYSTEM_DECIDER)) this.rerun = true;
    abandonFrame(deps, frame, "ended", endedByPersonResult(frame));
    if (!deps.turn.current()) this.startTurn(frame.frameId);
    return frame;
  }

  /**
   * Storage refused a write no caller waited for (rows a step deferred, src/storage/deferred-writes.ts):
   * the live run stops and the turn fails as `internal`, so every device sees it; with no turn
   * running, the error alone is recorded.
   */
  failOnStorage(error: unknown): void {
    this.rerun = false;
    this.live?.controller.abort("cancelled" satisfies AbortReason);
    if (this.deps.turn.current()) failRunningTurn(this.deps, error);
    else
      this.deps.events.append("error", {
        code: "internal",
        message: `Internal error: ${errorMessage(error)}`,
      });
  }

  // Failures outside the model call (storage, a corrupt row, a bug) end the turn as `failed` with
  // a valid transcript, instead of leaving it running for the watchdog to replay forever.
  private async driveSafely(live: LiveRun): Promise<void> {
    try {
      await this.drive(live);
    } catch (error) {
      console.error("AgentLoop.drive failed", error);
      failRunningTurn(this.deps, error);
    }
  }

  // Asks `nextStep` what the stored state calls for, carries it out, and asks again.
  private async drive(live: LiveRun): Promise<void> {
    const { deps } = this;
    const signal = live.controller.signal;
    for (;;) {
      if (signal.aborted) return;
      const step = nextStep(readLoopState(deps));
      if (step.step === "stop") return;
      if (step.step === "begin_turn") {
        this.beginNextTurn();
        continue;
      }
      // Until this turn pauses or ends, a lost instance is noticed by the watchdog alarm.
      this.refreshWatchdog();
      if (deps.turn.status() !== "running" && pendingOnTop(deps).length === 0) {
        deps.turn.setStatus("running");
      }
      switch (step.step) {
        case "settle_tools": {
          const outcome = await settleToolStep(deps, step.uses, signal);
          if (outcome === "aborted" || outcome === "paused") return;
          continue;
        }
        case "end_turn":
          // The stop itself was recorded when the message arrived.
          endTurn(deps, step.turn, "end_turn", null);
          continue;
        case "fail_lost_call":
          failTurn(
            deps,
            step.turn,
            "model_lost",
            `The model call was lost ${step.turn.restarts + 1} times; giving up.`,
          );
          continue;
        case "restart_call":
          this.restartLostCall(step.turn);
          continue;
        case "iteration_limit":
          deps.events.append("error", {
            code: "iteration_limit",
            message: `The turn stopped after ${step.turn.iterations} model calls (the limit per turn).`,
          });
          endTurn(deps, step.turn, "iteration_limit", null);
          continue;
        case "budget_exhausted":
          deps.budget?.refused();
          failTurn(deps, step.turn, "budget_exhausted", step.message);
          continue;
        case "pop_frame":
          abandonFrame(deps, step.frame, "failed", step.result);
          continue;
        case "wait_retry":
          deps.deadlines.setWatchdog(step.at);
          return;
        case "call_model": {
          const { turn } = step;
          try {
            await fitContext(deps, turn.id, turn.pausedForPerson, signal);
          } catch (error) {
            if (signal.aborted) return;
            // The summarizing call failed: wait or fail exactly as a failed model call would.
            if (onModelFailure(deps, turn, error, false) === "waiting") return;
            continue;
          }
          if ((await this.callModel(live, deps.turn.current() ?? turn)) !== "continue") return;
          continue;
        }
      }
    }
  }

  // Moved only when it is not nearly a full watchdogMs ahead: each move is a write and a new alarm
  // that every later send (the next call's first text, say) waits on until they are durable.
  private refreshWatchdog(): void {
    const { clock, deadlines, settings } = this.deps;
    const due = clock.now() + settings.watchdogMs;
    const watchdog = deadlines.watchdog();
    if (watchdog === null || watchdog < due - Math.min(WATCHDOG_REFRESH_MS, settings.watchdogMs / 4))
      deadlines.setWatchdog(due);
  }

  /**
   * A model call was started and never finished (its instance was lost, or the watchdog aborted a
   * silent stream). Devices hear it first, so they drop the partial text; the call is then re-issued
   * from the stored transcript (past MAX_RESTARTS, `nextStep` fails the turn instead).
   */
  private restartLostCall(turn: TurnRecord): void {
    const { deps } = this;
    deps.events.append("turn_restarted", {
      turnId: turn.id,
      reason:
        "The model call in flight was lost (restart, eviction or a silent stream); continuing from the stored transcript.",
    });
    deps.turn.save({ ...turn, callInFlight: false, restarts: turn.restarts + 1 });
  }

  /**
   * Aborts this instance's live run, keeps its partial text and cancels the open cards (of frame
   * `frameId` only, when given); true when a run was live.
   */
  private stopLiveRun(
    deviceId: string | null,
    frameId: string | null = null,
    decider: Decider = SYSTEM_DECIDER,
  ): boolean {
    const { deps } = this;
    const live = this.live;
    const partial = live?.assembler?.partialText() ?? [];
    live?.controller.abort("cancelled" satisfies AbortReason);
    if (live) live.assembler = null;
    if (partial.length > 0) deps.transcript.append("assistant", partial);
    cancelPending(deps, { deviceId, frameId, decider });
    return live !== null;
  }

  private beginNextTurn(): void {
    const next = this.deps.queue.shift();
    if (!next) return;
    this.deps.transcript.append("user", [{ type: "text", text: next.text }]);
    this.startTurn(next.id);
  }

  /** Starts a turn: for a user message, or for a parent agent resuming after the person ended its child. */
  private startTurn(messageId: string): void {
    const { deps } = this;
    const turn: TurnRecord = {
      id: deps.newId("turn"),
      messageId,
      iterations: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      pausedForPerson: false,
      callInFlight: false,
      restarts: 0,
    };
    deps.turn.save(turn);
    deps.events.append("turn_started", { turnId: turn.id, messageId, ...topMark(deps) });
    deps.turn.setStatus("running");
  }

  /** One model call: stream to every device, then persist the whole assistant message at once. */
  private async callModel(live: LiveRun, turn: TurnRecord): Promise<"continue" | "aborted" | "waiting"> {
    const { deps } = this;
    const signal = live.controller.signal;
    const current: TurnRecord = { ...turn, iterations: turn.iterations + 1, callInFlight: true };
    deps.turn.save(current);
    const frame = deps.frames.top();
    if (frame) deps.frames.countModelCall(frame.frameId);
    let watchdogAt = deps.clock.now();
    // Tools listed by MCP servers may need fetching first; a server that cannot be listed is left out.
    await deps.tools.prepare?.(signal);
    if (signal.aborted) return "aborted";

    const framed = frameRequest(deps);
    const request = buildModelRequest({
      ...framed,
      systemPrompt: withModeNotes(framed.systemPrompt, deps.kinds.modeNotes(deps.turn.mode())),
      maxTokens: deps.settings.maxTokens,
      messages: deps.transcript.messages(),
      pausedForPerson: current.pausedForPerson,
    });
    const mark = topMark(deps);
    const assembler = new StreamAssembler(
      (output) => appendOutput(deps.events, turn.id, current.iterations, mark, output),
      () => deps.clock.now(),
      {
        storeWhileFlowing: () => deps.events.readsStoredOnly?.() === true,
        live: (delta) =>
          deps.events.sendLive({
            type: "delta",
            turnId: turn.id,
            call: current.iterations,
            ...delta,
            ...mark,
          }),
      },
    );
    live.assembler = assembler;

    deps.deadlines.setStreaming(true);
    try {
      // However the stream ends (finished, failed or aborted), the assembler stops before the rest
      // of this call hears of it: buffered text reaches devices and storage before any event that
      // says how the call ended.
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
      } finally {
        assembler.stop();
      }
    } catch (error) {
      if (signal.aborted) return "aborted";
      const hadOutput = assembler.finish().content.length > 0;
      // An outage waits and retries wherever it happens; any other failure inside a delegated
      // agent ends that agent only, and its parent decides what to do.
      if (!frame || passesWithTime(error)) {
        return onModelFailure(deps, turn, error, hadOutput) === "waiting" ? "waiting" : "continue";
      }
      const message = errorMessage(error);
      abandonFrame(deps, frame, "failed", `Agent "${frame.agent}" failed: the model call failed: ${message}`);
      return "continue";
    } finally {
      live.assembler = null;
      deps.deadlines.setStreaming(false);
    }
    if (signal.aborted) return "aborted";

    recordReply(deps, current, assembler.finish());
    return "continue";
  }

  /** Streamed output not stored yet, for a device that joins (or resumes) mid-stream. */
  unstoredDelta(): DeltaFrame | null {
    const turn = this.deps.turn.current();
    const delta = this.live?.assembler?.unstored();
    return turn && delta
      ? { type: "delta", turnId: turn.id, call: turn.iterations, ...delta, ...topMark(this.deps) }
      : null;
  }
}

function withModeNotes(systemPrompt: string, notes: string): string {
  return notes === "" ? systemPrompt : `${systemPrompt}\n\n${notes}`;
}

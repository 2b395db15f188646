// The session's state in words — thinking, waiting for you, ready, failed (with Retry), waiting out
// a model outage (when the retry comes, a countdown, and Retry now) — plus the demo-model notice (or,
// for an external agent's session, which agent it is) and the permission mode switch.
import type { PermissionMode } from "../../../../src/protocol/index";
import { agentNoticeText } from "../../agent-notice";
import { formatRemaining } from "../../interaction-view";
import type { SessionView } from "../../session-state";
import { h, setText } from "../dom";

const MODES: [PermissionMode, string][] = [
  ["default", "Ask before tools"],
  ["acceptEdits", "Allow edits"],
  ["plan", "Plan only"],
  ["bypassPermissions", "Allow everything"],
];

export interface StatusActions {
  retry(): void;
  retryNow(): void;
  setMode(mode: PermissionMode): void;
}

export class StatusBar {
  readonly el: HTMLElement;
  readonly demo = h(
    "p",
    { class: "demo-notice", role: "note", hidden: true },
    h("strong", { text: "Demo model. " }),
    "No API key is configured, so replies are scripted: the demo asks you a question and requests approval for a tool so you can try the whole flow.",
  );
  /** Which external agent this session belongs to; shown instead of the demo notice. */
  readonly agent = h("p", { class: "agent-notice", role: "note", hidden: true });
  private readonly text = h("span", { class: "status-text" });
  private readonly error = h("span", { class: "status-error" });
  private readonly retry: HTMLButtonElement;
  private readonly retryNow: HTMLButtonElement;
  // Ticks outside the polite live region's announcements, like a card's countdown.
  private readonly retryIn = h("span", { class: "retry-in", role: "timer", "aria-live": "off" });
  private retryTimer: ReturnType<typeof setInterval> | undefined;
  private retryAt: number | null = null;
  private clockSkewMs = 0;
  private readonly mode: HTMLSelectElement;

  constructor(actions: StatusActions) {
    this.retry = h("button", {
      type: "button",
      text: "Retry",
      hidden: true,
      on: { click: () => actions.retry() },
    });
    this.retryNow = h("button", {
      type: "button",
      text: "Retry now",
      hidden: true,
      on: { click: () => actions.retryNow() },
    });
    this.mode = h(
      "select",
      {
        class: "mode-select",
        "aria-label": "Permission mode",
        on: { change: () => actions.setMode(this.mode.value as PermissionMode) },
      },
      ...MODES.map(([value, label]) => h("option", { value, text: label })),
    );
    this.el = h(
      "div",
      { class: "status-bar", role: "status", "aria-live": "polite" },
      h("span", { class: "status-dot", "aria-hidden": "true" }),
      this.text,
      this.retryIn,
      this.error,
      this.retry,
      this.retryNow,
      h("label", { class: "mode" }, "Tools: ", this.mode),
    );
  }

  update(view: SessionView): void {
    this.el.dataset.status = view.status;
    const words = {
      idle: view.connectedOnce ? "Ready" : "Loading…",
      running: "Thinking…",
      awaiting_input: "Waiting for you",
      failed: "Failed",
    }[view.status];
    const retryAt = view.modelRetry && view.status === "running" ? view.modelRetry.retryAt : null;
    setText(
      this.text,
      retryAt === null ? words : `Model unavailable — retrying at ${new Date(retryAt).toLocaleTimeString()}`,
    );
    this.retryNow.hidden = retryAt === null;
    this.showRetryIn(retryAt, view.clockSkewMs);
    setText(this.error, view.status === "failed" && view.error ? view.error : "");
    this.retry.hidden = view.status !== "failed" || !view.lastUserText;
    if (this.mode.value !== view.mode) this.mode.value = view.mode;
    this.demo.hidden = !view.demo;
    const agent = agentNoticeText(view.agent);
    this.agent.hidden = agent === null;
    setText(this.agent, agent ?? "");
  }

  /** Counts down to the server's retry time, corrected by the clock skew seen at hello. */
  private showRetryIn(retryAt: number | null, clockSkewMs: number): void {
    this.retryAt = retryAt;
    this.clockSkewMs = clockSkewMs;
    this.retryIn.hidden = retryAt === null;
    if (retryAt === null) {
      clearInterval(this.retryTimer);
      this.retryTimer = undefined;
      return;
    }
    this.tick();
    this.retryTimer ??= setInterval(() => this.tick(), 250);
  }

  private tick(): void {
    if (this.retryAt === null) return;
    const ms = this.retryAt - (Date.now() + this.clockSkewMs);
    setText(this.retryIn, ms > 0 ? `(in ${formatRemaining(ms)})` : "(now)");
  }
}

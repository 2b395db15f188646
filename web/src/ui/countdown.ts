// A live countdown to an interaction's server-side deadline. It reads the server's `expiresAt`
// corrected by the clock skew seen at hello, so a reload or another device shows the same time.
// The server refuses an answer after that deadline, so the card is told when it passes.
import { formatRemaining, remainingMs, urgencyOf } from "../interaction-view";
import type { InteractionState } from "../session-state";
import { h, setText } from "./dom";

export class Countdown {
  readonly el: HTMLElement;
  private readonly label: HTMLElement;
  private timer: ReturnType<typeof setInterval> | undefined;
  private interaction: InteractionState | null = null;
  private skewMs = 0;

  /** `onExpire` runs whenever a tick finds the deadline passed on an open interaction. */
  constructor(private readonly onExpire: () => void = () => {}) {
    this.label = h("span", { class: "countdown-time" });
    this.el = h("span", { class: "countdown", role: "timer", "aria-live": "off" }, this.label);
  }

  /** Starts or re-aims the countdown; pass `null` to stop it (resolved interactions). */
  update(interaction: InteractionState | null, skewMs: number): void {
    this.interaction = interaction;
    this.skewMs = skewMs;
    if (!interaction) {
      this.stop();
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    this.tick();
    if (this.timer === undefined) this.timer = setInterval(() => this.tick(), 250);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (!this.interaction) return;
    const ms = remainingMs(this.interaction, this.skewMs, Date.now());
    const urgency = urgencyOf(ms);
    this.el.dataset.urgency = urgency;
    // The server's alarm decides the outcome; until its event arrives the card only says time is up.
    setText(this.label, urgency === "expired" ? "time is up" : `${formatRemaining(ms)} left`);
    this.el.setAttribute(
      "aria-label",
      urgency === "expired" ? "Time is up" : `${formatRemaining(ms)} left to answer`,
    );
    if (urgency !== "expired") return;
    this.stop();
    this.onExpire();
  }
}

// A live countdown to an interaction's server-side deadline. It reads the server's `expiresAt`
// corrected by the clock skew seen at hello, so a reload or another device shows the same time.
// The server refuses an answer after that deadline, so the card is told when it passes. Beside it,
// "more time" when the card's deadline policy allows an extension and the card offers it.
import { formatRemaining, moreTimeLabel, remainingMs, urgencyOf } from "../../interaction-view";
import type { InteractionState } from "../../session-state";
import { h, setAttr, setText } from "../dom";

/**
 * Every running countdown of the page, ticked together by one timer. An inbox can hold hundreds of
 * waiting cards: a timer of each, writing its words and attributes on every tick whether or not they
 * changed, kept a phone's renderer restyling the page all the time (about 0.8 of a core idle with 300
 * cards); one timer, writing only what changed, restyles it once a second.
 */
const running = new Set<Countdown>();
let ticker: ReturnType<typeof setInterval> | undefined;

function run(countdown: Countdown): void {
  running.add(countdown);
  ticker ??= setInterval(() => {
    for (const each of running) each.tick();
  }, 250);
}

function halt(countdown: Countdown): void {
  running.delete(countdown);
  if (running.size > 0 || ticker === undefined) return;
  clearInterval(ticker);
  ticker = undefined;
}

export class Countdown {
  readonly el: HTMLElement;
  private readonly label: HTMLElement;
  private interaction: InteractionState | null = null;
  private skewMs = 0;

  private readonly timerEl: HTMLElement;
  private readonly more: HTMLButtonElement;

  /**
   * `onExpire` runs whenever a tick finds the deadline passed on an open interaction; `onMoreTime`,
   * when given, is what the "more time" button does (it is shown only while the policy allows it).
   */
  constructor(
    private readonly onExpire: () => void = () => {},
    private readonly onMoreTime: (() => void) | null = null,
  ) {
    this.label = h("span", { class: "countdown-time" });
    this.timerEl = h("span", { class: "countdown", role: "timer", "aria-live": "off" }, this.label);
    this.more = h("button", {
      type: "button",
      class: "more-time",
      hidden: true,
      on: { click: () => this.onMoreTime?.() },
    });
    this.el = h("span", { class: "deadline" }, this.timerEl, this.more);
  }

  /** The "more time" button, for a card that shows it elsewhere than beside the countdown. */
  get moreTimeButton(): HTMLButtonElement {
    return this.more;
  }

  /** Locks the "more time" button while a request for it is on its way. */
  setMoreTimeBusy(busy: boolean): void {
    this.more.disabled = busy;
  }

  /** Starts or re-aims the countdown; pass `null` to stop it (resolved interactions). */
  update(interaction: InteractionState | null, skewMs: number): void {
    this.interaction = interaction;
    this.skewMs = skewMs;
    if (!interaction) {
      this.stop();
      this.el.hidden = true;
      this.more.hidden = true;
      return;
    }
    this.el.hidden = false;
    const more = this.onMoreTime ? moreTimeLabel(interaction) : null;
    this.more.hidden = more === null;
    if (more) {
      setText(this.more, `More time (${more})`);
      // The visible words stay the button's name (WCAG 2.5.3); the limit is extra, in its title.
      this.more.title = `Up to ${new Date(interaction.deadlinePolicy?.maxExpiresAt ?? 0).toLocaleString()}`;
    }
    // A deadline already past is told once, with no timer left running for it.
    if (this.tick()) run(this);
  }

  stop(): void {
    halt(this);
  }

  /**
   * Shows the time left now (the shared timer calls it four times a second); false once there is
   * none, the countdown stopped and `onExpire` told.
   */
  tick(): boolean {
    if (!this.interaction) return false;
    const ms = remainingMs(this.interaction, this.skewMs, Date.now());
    const urgency = urgencyOf(ms);
    setAttr(this.timerEl, "data-urgency", urgency);
    // The server's alarm decides the outcome; until its event arrives the card only says time is up.
    setText(this.label, urgency === "expired" ? "time is up" : `${formatRemaining(ms)} left`);
    setAttr(
      this.timerEl,
      "aria-label",
      urgency === "expired" ? "Time is up" : `${formatRemaining(ms)} left to answer`,
    );
    if (urgency !== "expired") return true;
    this.more.hidden = true;
    this.stop();
    this.onExpire();
    return false;
  }
}

// What every card a person can answer shares: the countdown (with "more time"), the busy / expired /
// resolved lifecycle, sending an action with progress in the action line, and collapsing to the receipt.
import type { InteractionResolution } from "../../../../src/protocol/index";
import { receiptText } from "../../interaction-view";
import type { InteractionState } from "../../session-state";
import { h, setText } from "../dom";
import { CARD_SETTLE_MS, cardClock, tooSoonForCard } from "./card-keys";
import { Countdown } from "./countdown";
import {
  type CardContext,
  type InteractionCard,
  isTextEntry,
  receiptNode,
  renderReceipt,
  runAction,
  showExpired,
} from "./interaction-card";

export abstract class AnswerableCard implements InteractionCard {
  abstract readonly el: HTMLElement;
  protected readonly line = h("p", { class: "action-line", hidden: true });
  protected readonly receipt = receiptNode();
  protected readonly countdown = new Countdown(
    () => this.expire(),
    () => void this.askForMoreTime(),
  );
  protected context: CardContext | null = null;
  /** What answers address (`respond`). */
  protected interactionId = "";
  /** When the card appeared (`cardClock`); keys that could answer it wait CARD_SETTLE_MS from here. */
  private readonly appearedAt = cardClock.now();
  private busy = false;
  private resolved = false;
  private expired = false;

  /** Enables or disables the card's own inputs (called whenever `open()` may have changed). */
  protected abstract lockControls(locked: boolean): void;
  /** Replaces the controls with what stays after a resolution (the receipt is already shown). */
  protected abstract collapse(resolution: InteractionResolution): void;
  /** The kind's own shortcuts; returns true when it used the key. */
  protected abstract handleCardKey(event: KeyboardEvent): boolean;

  /** A key for this card: swallowed unused while the card is new (card-keys.ts), else the kind's. */
  handleKey(event: KeyboardEvent): boolean {
    const sinceAppeared = cardClock.now() - this.appearedAt;
    if (tooSoonForCard(event.key, sinceAppeared, isTextEntry(event.target))) return true;
    return this.handleCardKey(event);
  }

  /** Card shortcuts; call once `el` exists. */
  protected listenForKeys(): void {
    this.el.addEventListener("keydown", (event) => {
      if (this.handleKey(event)) event.preventDefault();
    });
    // Lets styles (and browser tests) tell when the card's keys start to count.
    setTimeout(() => this.el.setAttribute("data-keys-ready", ""), CARD_SETTLE_MS);
  }

  /** True while an answer may be sent: not sending one, not resolved, not past the deadline. */
  protected open(): boolean {
    return !this.busy && !this.resolved && !this.expired;
  }

  /** Sends one response, locking the card until it fails or the resolution arrives. */
  protected respond(response: unknown): Promise<void> {
    const context = this.context;
    if (!context || !this.open()) return Promise.resolve();
    return runAction(
      this.line,
      (busy) => this.setBusy(busy),
      () => context.actions.respond(this.interactionId, response),
      (error) => this.refused(error),
    );
  }

  /** Called when the server refused a response (the action line already says why). */
  protected refused(_error: unknown): void {}

  /**
   * "Give me more time": the server moves the deadline and every device (this one too) folds the
   * event, so the countdown moves when it arrives; a refusal (at the maximum) shows in the action line.
   */
  private async askForMoreTime(): Promise<void> {
    const extend = this.context?.actions.extendDeadline;
    if (!extend || !this.open()) return;
    this.countdown.setMoreTimeBusy(true);
    try {
      await extend(this.interactionId);
      this.line.hidden = true;
    } catch (error) {
      this.line.hidden = false;
      this.line.dataset.state = "error";
      setText(
        this.line,
        `Could not get more time: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      this.countdown.setMoreTimeBusy(false);
    }
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    this.lockControls(!this.open());
  }

  /** Past the deadline the server records a timeout whatever is sent, so the card stops offering. */
  private expire(): void {
    if (this.expired || this.resolved) return;
    this.expired = true;
    this.lockControls(true);
    showExpired(this.line);
  }

  update(interaction: InteractionState, context: CardContext): void {
    this.context = context;
    this.interactionId = interaction.id;
    const resolution = interaction.resolution;
    this.countdown.update(resolution ? null : interaction, context.clockSkewMs);
    if (!resolution || this.resolved) return;
    this.resolved = true;
    this.el.classList.add("resolved");
    this.el.removeAttribute("tabindex");
    renderReceipt(this.receipt, resolution, context.deviceId, receiptText(resolution, context.deviceId));
    this.collapse(resolution);
  }

  focus(): void {
    this.el.focus({ preventScroll: true });
  }

  dispose(): void {
    this.countdown.stop();
  }
}

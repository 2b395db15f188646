// What every interaction card shares: the one action they call, the context they render in, the
// receipt line, and the "sending / failed" line under the buttons.

import type { CommandOutcome } from "../../../../client/session-client";
import { approvalsText, stillWaitingFor } from "../../../../src/protocol/cards/approval-words";
import type { InteractionResolution } from "../../../../src/protocol/index";
import { receiptText } from "../../interaction-view";
import type { InteractionState } from "../../session-state";
import { h, setText } from "../dom";

export interface InteractionActions {
  /** Sends a response in the kind's own shape to the interaction `interactionId`. */
  respond(interactionId: string, response: unknown): Promise<CommandOutcome>;
  /** "Give me more time": moves the card's deadline by its policy's step (absent: not offered). */
  extendDeadline?(interactionId: string): Promise<CommandOutcome>;
}

export interface CardContext {
  deviceId: string | null;
  clockSkewMs: number;
  actions: InteractionActions;
  /** Moves focus to the message box (a reply there answers an open question in chat). */
  focusMessageBox?(): void;
}

/** A rendered interaction; `handleKey` returns true when it used the key. */
export interface InteractionCard {
  readonly el: HTMLElement;
  update(interaction: InteractionState, context: CardContext): void;
  handleKey(event: KeyboardEvent): boolean;
  focus(): void;
  dispose(): void;
}

/** The receipt line; `data-outcome` lets styles and tests tell outcomes apart. */
export function renderReceipt(
  node: HTMLElement,
  resolution: InteractionResolution,
  deviceId: string | null,
  text = receiptText(resolution, deviceId),
): void {
  node.hidden = false;
  node.dataset.outcome = resolution.outcome;
  node.dataset.remote = String(resolution.resolvedBy !== null && resolution.resolvedBy !== deviceId);
  setText(node, text);
}

export function receiptNode(): HTMLElement {
  return h("p", { class: "receipt", role: "status", hidden: true });
}

/** Runs one card action, showing progress and any refusal in `line`; re-enables on failure. */
export async function runAction(
  line: HTMLElement,
  setBusy: (busy: boolean) => void,
  action: () => Promise<CommandOutcome>,
  onRefused: (error: unknown) => void = () => {},
): Promise<void> {
  setBusy(true);
  line.hidden = false;
  line.dataset.state = "sending";
  setText(line, "Sending…");
  try {
    const outcome = await action();
    // The card collapses when the resolution event arrives; until then it stays locked. An approval
    // counted on a call that needs several people waits for another person's, not for this device.
    const counted = (
      outcome as { result?: { approvals?: { given: number; needed: number; unreachable?: string } } }
    ).result?.approvals;
    setText(
      line,
      counted
        ? `Your approval counts: ${approvalsText({ given: counted.given, needed: counted.needed })}; ${counted.unreachable ? stillWaitingFor(counted) : "waiting for another person"}`
        : "Sent — waiting for the session to confirm…",
    );
  } catch (error) {
    line.dataset.state = "error";
    setText(line, `Could not send: ${error instanceof Error ? error.message : String(error)}`);
    setBusy(false);
    onRefused(error);
  }
}

/** Says why a card stopped taking answers when its deadline passed before any resolution arrived. */
export function showExpired(line: HTMLElement): void {
  line.hidden = false;
  line.dataset.state = "expired";
  setText(line, "Time is up — an answer can no longer be sent.");
}

/** Keys typed into text fields belong to the field, not to card shortcuts. */
export function isTextEntry(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && (target.type === "text" || target.type === "search"))
  );
}

/** A prompt of a kind this client has no renderer for: shown read-only, with its receipt. */
export class UnsupportedCard implements InteractionCard {
  readonly el: HTMLElement;
  private readonly receipt = receiptNode();

  constructor(interaction: InteractionState) {
    const kind = interaction.kind;
    this.el = h(
      "section",
      // A group, not a region: a long conversation holds many cards, often with the same name.
      { role: "group", class: "card", "aria-label": `A ${kind} prompt` },
      h("p", {
        class: "hint",
        text: `The agent is waiting on a “${kind}” prompt that this page cannot answer yet.`,
      }),
      h("pre", {
        class: "tool-args",
        text: JSON.stringify(interaction.request ?? null, null, 2) ?? "",
      }),
      this.receipt,
    );
  }

  update(interaction: InteractionState, context: CardContext): void {
    const resolution = interaction.resolution;
    if (resolution) renderReceipt(this.receipt, resolution, context.deviceId);
  }

  handleKey(): boolean {
    return false;
  }

  focus(): void {}

  dispose(): void {}
}

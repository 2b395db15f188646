// The tool approval card: tool name, risk, pretty-printed arguments, Approve / Always allow /
// Deny with an optional reason, a countdown, and the receipt once any device (or the deadline) decides.
import { prettyArguments } from "../interaction-view";
import type { ToolItem } from "../session-state";
import { Countdown } from "./countdown";
import { h } from "./dom";
import {
  type CardContext,
  type InteractionCard,
  isTextEntry,
  receiptNode,
  renderReceipt,
  runAction,
  showExpired,
} from "./interaction-card";

function requestOf(item: ToolItem): { toolName: string; input: unknown; risk: string } {
  const request = (item.interaction?.request ?? {}) as Record<string, unknown>;
  return {
    toolName: typeof request.toolName === "string" ? request.toolName : item.name,
    input: "input" in request ? request.input : item.input,
    risk: typeof request.risk === "string" ? request.risk : "",
  };
}

export class ApprovalCard implements InteractionCard {
  readonly el: HTMLElement;
  private readonly args: HTMLElement;
  private readonly reason: HTMLInputElement;
  private readonly buttons: HTMLButtonElement[];
  private readonly controls: HTMLElement;
  private readonly line = h("p", { class: "action-line", hidden: true });
  private readonly receipt = receiptNode();
  private readonly countdown = new Countdown(() => this.expire());
  private context: CardContext | null = null;
  private toolCallId = "";
  private resolved = false;
  private busy = false;
  private expired = false;

  constructor(item: ToolItem) {
    const { toolName, input, risk } = requestOf(item);
    this.args = h("pre", { class: "tool-args", text: prettyArguments({ input, argsJson: "" }) });
    this.reason = h("input", {
      type: "text",
      class: "deny-reason",
      placeholder: "Reason (optional)",
      maxlength: "4000",
      "aria-label": "Reason for denying (optional)",
    });
    const approve = h("button", {
      type: "button",
      class: "primary",
      text: "Approve",
      on: { click: () => this.approve(false) },
    });
    const always = h("button", {
      type: "button",
      text: "Always allow (this session)",
      title: `Run ${toolName} without asking for the rest of this session`,
      on: { click: () => this.approve(true) },
    });
    const deny = h("button", {
      type: "button",
      class: "danger",
      text: "Deny",
      on: { click: () => this.deny() },
    });
    this.buttons = [approve, always, deny];
    this.controls = h(
      "div",
      { class: "card-actions" },
      approve,
      always,
      h("span", { class: "deny-group" }, this.reason, deny),
      this.line,
    );
    this.el = h(
      "section",
      { class: "card approval-card", tabindex: "0", "aria-label": `Approval needed to run ${toolName}` },
      h(
        "header",
        { class: "card-head" },
        h("span", { class: "card-title" }, "Allow ", h("code", { text: toolName }), "?"),
        risk ? h("span", { class: `chip risk risk-${risk}`, text: risk }) : null,
        this.countdown.el,
      ),
      this.args,
      this.controls,
      this.receipt,
    );
    this.el.addEventListener("keydown", (event) => {
      if (this.handleKey(event)) event.preventDefault();
    });
  }

  private approve(remember: boolean): void {
    const { context, toolCallId } = this;
    if (!context || !this.open()) return;
    void runAction(
      this.line,
      (b) => this.setBusy(b),
      () => context.actions.approve(toolCallId, remember),
    );
  }

  private deny(): void {
    const { context, toolCallId } = this;
    if (!context || !this.open()) return;
    const reason = this.reason.value.trim() || undefined;
    void runAction(
      this.line,
      (b) => this.setBusy(b),
      () => context.actions.deny(toolCallId, reason),
    );
  }

  private open(): boolean {
    return !this.busy && !this.resolved && !this.expired;
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    for (const button of this.buttons) button.disabled = busy || this.expired;
    this.reason.disabled = busy || this.expired;
  }

  /** Past the deadline the server records a timeout whatever is sent, so the buttons stop offering. */
  private expire(): void {
    if (this.expired || this.resolved) return;
    this.expired = true;
    this.setBusy(this.busy);
    showExpired(this.line);
  }

  update(item: ToolItem, context: CardContext): void {
    this.context = context;
    this.toolCallId = item.toolCallId;
    const resolution = item.interaction?.resolution ?? null;
    this.countdown.update(resolution ? null : item.interaction, context.clockSkewMs);
    if (!resolution || this.resolved) return;
    this.resolved = true;
    this.el.classList.add("resolved");
    this.el.removeAttribute("tabindex");
    this.controls.remove();
    // Once decided, the tool card's collapsed "Arguments" keeps them one click away.
    this.args.hidden = true;
    renderReceipt(this.receipt, resolution, context.deviceId);
  }

  /** Enter approves (or denies from the reason field), Esc denies. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.open() || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "Escape") {
      this.deny();
      return true;
    }
    if (event.key !== "Enter" || event.target instanceof HTMLButtonElement) return false;
    if (event.target === this.reason) this.deny();
    else if (isTextEntry(event.target)) return false;
    else this.approve(false);
    return true;
  }

  focus(): void {
    this.el.focus({ preventScroll: true });
  }

  dispose(): void {
    this.countdown.stop();
  }
}

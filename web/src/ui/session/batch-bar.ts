// "Approve all" / "Deny all": shown while two or more approval cards of the agent's message are
// open, it decides them with one command; cards another device decided first are reported. A call
// Parley assessed as high risk is never in an "Approve all": it is approved on its own card.

import type { CommandOutcome } from "../../../../client/session-client";
import { isHighRisk } from "../../../../src/assessment/assessment-words";
import { BATCHED_KIND_NAMES } from "../../../../src/interactions/kinds/names";
import type { DecideBatchCommand } from "../../../../src/protocol/index";
import { pendingInteractions } from "../../interaction-view";
import type { SessionView } from "../../session-state";
import { h, setText } from "../dom";

/** What a batch decides: "Approve all" or "Deny all" (with one reason, optionally stopping the turn). */
export type BatchInput = Omit<DecideBatchCommand, "type" | "requestId">;

/** The kinds a batch decides: one approve or deny fits every such card. */
const BATCHED = new Set(BATCHED_KIND_NAMES);

interface BatchReply {
  decided?: unknown[];
  alreadyResolved?: unknown[];
}

/** What the person is told once a batch went through. */
export function batchSummary(decision: BatchInput["decision"], reply: BatchReply): string {
  const decided = reply.decided?.length ?? 0;
  const earlier = reply.alreadyResolved?.length ?? 0;
  const verb = decision === "approve" ? "Approved" : "Denied";
  const text = `${verb} ${decided} ${decided === 1 ? "card" : "cards"}`;
  if (earlier === 0) return `${text}.`;
  return `${text}; ${earlier} had already been decided on another device.`;
}

export class BatchBar {
  readonly el: HTMLElement;
  private readonly count = h("span", { class: "batch-count" });
  private readonly reason: HTMLInputElement;
  private readonly stop: HTMLInputElement;
  private readonly buttons: HTMLButtonElement[];
  private readonly line = h("p", { class: "action-line", role: "status", hidden: true });
  private ids: string[] = [];
  /** The open cards "Approve all" may decide: all but those Parley assessed as high risk. */
  private approvable: string[] = [];
  private readonly approveButton: HTMLButtonElement;
  private busy = false;

  constructor(private readonly decideBatch: (batch: BatchInput) => Promise<CommandOutcome>) {
    this.reason = h("input", {
      type: "text",
      maxlength: "4000",
      placeholder: "Reason for denying (optional)",
      "aria-label": "Reason for denying all (optional)",
    });
    this.stop = h("input", { type: "checkbox", "aria-label": "Also stop the turn" });
    const approve = h("button", {
      type: "button",
      class: "primary",
      text: "Approve all",
      on: { click: () => this.decide("approve") },
    });
    const deny = h("button", {
      type: "button",
      class: "danger",
      text: "Deny all",
      on: { click: () => this.decide("deny") },
    });
    this.approveButton = approve;
    this.buttons = [approve, deny];
    this.el = h(
      "section",
      { class: "batch-bar", "aria-label": "Decide all open approvals", hidden: true },
      this.count,
      approve,
      h("span", { class: "deny-group" }, this.reason, deny),
      h("label", { class: "batch-stop" }, this.stop, "and stop the turn"),
      this.line,
    );
  }

  update(view: SessionView): void {
    // A batch decides one agent's message: the approvals of the agent whose card is on top.
    const approvals = pendingInteractions(view).filter((prompt) => BATCHED.has(prompt.interaction.kind));
    const frameId = approvals[0]?.interaction.frameId;
    const open = approvals.filter((prompt) => prompt.interaction.frameId === frameId);
    const ids = open.map((prompt) => prompt.interaction.toolCallId);
    const high = open.filter((prompt) => isHighRisk(prompt.interaction.request)).length;
    this.approvable = open
      .filter((prompt) => !isHighRisk(prompt.interaction.request))
      .map((prompt) => prompt.interaction.toolCallId);
    if (ids.join(" ") !== this.ids.join(" ")) {
      this.ids = ids;
      this.busy = false;
      this.lock(false);
      if (ids.length >= 2) this.line.hidden = true;
    }
    const shown = ids.length >= 2;
    // Keep the outcome of the last batch readable after its cards closed.
    this.el.hidden = !shown && this.line.hidden;
    for (const control of [...this.buttons, this.reason, this.stop]) control.hidden = !shown;
    const skipped =
      high === 0
        ? ""
        : ` ${high} ${high === 1 ? "is" : "are"} high risk: "Approve all" skips ${high === 1 ? "it" : "them"}; approve ${high === 1 ? "it" : "each"} on its own card.`;
    setText(this.count, shown ? `${ids.length} actions wait for your approval:${skipped}` : "");
    setText(this.approveButton, high === 0 ? "Approve all" : "Approve all but high risk");
    // Nothing left to approve in a batch: only "Deny all" stays.
    if (shown) this.approveButton.hidden = this.approvable.length === 0;
  }

  private lock(locked: boolean): void {
    for (const control of [...this.buttons, this.reason, this.stop]) control.disabled = locked;
  }

  private async decide(decision: BatchInput["decision"]): Promise<void> {
    if (this.busy || (decision === "approve" ? this.approvable : this.ids).length === 0) return;
    this.busy = true;
    this.lock(true);
    const reason = this.reason.value.trim();
    const batch: BatchInput = {
      toolCallIds: decision === "approve" ? [...this.approvable] : [...this.ids],
      decision,
      ...(decision === "deny" && reason ? { reason } : {}),
      ...(decision === "deny" && this.stop.checked ? { stop: true } : {}),
    };
    this.line.hidden = false;
    this.line.dataset.state = "sending";
    setText(this.line, "Sending…");
    try {
      const outcome = await this.decideBatch(batch);
      this.line.dataset.state = "done";
      setText(this.line, batchSummary(decision, (outcome.result ?? {}) as BatchReply));
    } catch (error) {
      this.line.dataset.state = "error";
      setText(this.line, `Could not send: ${error instanceof Error ? error.message : String(error)}`);
      this.busy = false;
      this.lock(false);
    }
  }
}

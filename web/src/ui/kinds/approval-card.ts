// The tool approval card: tool name, risk, the call, then the decision itself — Approve, or Deny with
// an optional reason — and one "More…" step away Always allow, Allow … for (a grant, only when its rule
// covers the call), Edit, Deny and stop, Always deny, More time; a countdown and the receipt once any
// device (or the deadline) decides. An ACP agent's request offers only what ACP can carry back.

import type { Assessment } from "../../../../src/assessment/assessment";
import { assessmentLine } from "../../../../src/assessment/assessment-words";
import { callDisplay } from "../../../../src/display/call-display";
import {
  type ApprovalShown,
  approvalOf,
  claimText,
  grantOffered,
} from "../../../../src/interactions/kinds/approval-view";
import type { ApprovalCount } from "../../../../src/protocol/cards/approval-count";
import { approvalsText } from "../../../../src/protocol/cards/approval-words";
import { prettyArguments } from "../../interaction-view";
import type { InteractionState, ToolItem } from "../../session-state";
import { acpDetailsOf, acpDetailsView } from "../approval/acp-details";
import { callView } from "../approval/call-view";
import { GrantForm } from "../approval/grant-form";
import { InputEditor } from "../approval/input-editor";
import { mcpOriginLine } from "../approval/mcp-origin";
import { AnswerableCard } from "../cards/answerable-card";
import { type CardContext, isTextEntry } from "../cards/interaction-card";
import { OWNER_CHOICE } from "../cards/owner-choices";
import { h, setText } from "../dom";

/**
 * "1 of 2 approvals · ana@example.com": how far a call that needs several people has got, and why
 * it cannot get there where the deployment knows only one person.
 */
function approvalsLine(count: ApprovalCount): string {
  const so = approvalsText({ given: count.given, needed: count.needed });
  const by = count.by.length > 0 ? ` · ${count.by.join(", ")}` : "";
  if (count.unreachable) return `${so}${by} · ${count.unreachable}`;
  return `${so}${by || ` · needs ${count.needed} different people`}`;
}

/** An external agent's own words about its call, marked as its claim, never styled as Parley's. */
function claimLine(claim: ApprovalShown["claim"]): HTMLElement | null {
  const text = claimText(claim);
  return text === null ? null : h("p", { class: "agent-claim", text });
}

/**
 * Parley's own assessment: the summary in the words every device uses (a high call's level first),
 * then each effect it read. Never the agent's words, which `claimLine` marks as its claim.
 */
function assessmentView(assessment: Assessment | null): HTMLElement | null {
  if (assessment === null) return null;
  return h(
    "div",
    { class: `assessment assessment-${assessment.level}`, "data-level": assessment.level },
    h("p", { class: "assessment-line", text: assessmentLine(assessment) }),
    assessment.effects.length > 1
      ? h(
          "ul",
          { class: "assessment-effects" },
          ...assessment.effects.map((effect) => h("li", { "data-kind": effect.kind, text: effect.detail })),
        )
      : null,
  );
}

/**
 * The choices one step from the decision, behind a keyboard-reachable "More…" disclosure; null when
 * there are none (an ACP agent that offered only approve and reject).
 */
function moreChoices(...choices: (HTMLElement | null)[]): HTMLElement | null {
  const present = choices.filter((choice): choice is HTMLElement => choice !== null);
  if (present.length === 0) return null;
  const buttons = present.filter((choice) => choice instanceof HTMLButtonElement);
  const panels = present.filter((choice) => !(choice instanceof HTMLButtonElement));
  return h(
    "details",
    { class: "more-choices" },
    h("summary", { text: "More…" }),
    h("div", { class: "card-actions" }, ...buttons),
    ...panels,
  );
}

export class ApprovalCard extends AnswerableCard {
  readonly el: HTMLElement;
  private readonly args: HTMLElement;
  private readonly reason: HTMLInputElement;
  private readonly buttons: HTMLButtonElement[];
  private readonly denyButton: HTMLButtonElement;
  private readonly approveButton: HTMLButtonElement;
  private readonly controls: HTMLElement;
  private readonly editor: InputEditor;
  private readonly grant: GrantForm;
  /** "1 of 2 approvals" on a call a deployment's rule makes wait for several people. */
  private readonly approvals = h("p", { class: "approval-count", role: "status", hidden: true });

  constructor(interaction: InteractionState, item: ToolItem) {
    super();
    const { toolName, input, risk, claim, suggestedRules, assessment } = approvalOf(
      interaction.request,
      item.name,
      item.input,
    );
    const acp = acpDetailsOf(interaction.request);
    // A file change as a diff, an MCP call as a table; an ACP request's diffs are in its details.
    this.args =
      (acp ? null : callView(callDisplay({ toolName, input, request: interaction.request }))) ??
      // Focusable, so a long call that scrolls can be read from the keyboard.
      h("pre", {
        class: "tool-args",
        tabindex: "0",
        "aria-label": "The call's input",
        text: prettyArguments({ input, argsJson: "" }),
      });
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
      class: OWNER_CHOICE,
      text: "Always allow (this session)",
      title: `Run ${toolName} without asking for the rest of this session`,
      on: { click: () => this.approve(true) },
    });
    this.denyButton = h("button", {
      type: "button",
      class: "danger",
      text: "Deny",
      on: { click: () => this.deny(false) },
    });
    const denyAndStop = h("button", {
      type: "button",
      class: "danger",
      text: "Deny and stop",
      title: "Deny, and stop the turn instead of letting the agent continue",
      on: { click: () => this.deny(true) },
    });
    const neverAgain = h("button", {
      type: "button",
      class: `danger ${OWNER_CHOICE}`,
      text: "Always deny",
      title: "Deny, and let the agent refuse this call from now on",
      on: { click: () => void this.respond({ decision: "deny", remember: true }) },
    });
    this.editor = new InputEditor(input, (updatedInput) => {
      void this.respond({ decision: "approve", remember: false, updatedInput });
    });
    this.grant = new GrantForm(toolName, input, suggestedRules, (grant) => {
      void this.respond({ decision: "approve", remember: false, grant });
    });
    this.approveButton = approve;
    this.buttons = [approve, always, this.denyButton, denyAndStop, neverAgain];
    // A grant is offered only where Parley found its rule covers the call, and never for a high-risk one.
    const offersGrant = grantOffered(interaction.request);
    // An ACP agent takes only the choices it offered: no reason, no edit, no stopping from here.
    // More time moves there too (it stays beside the countdown only when nothing else is in "More…").
    const moreTime = this.countdown.moreTimeButton;
    const more = acp
      ? acp.allowAlways || acp.rejectAlways
        ? moreChoices(acp.allowAlways ? always : null, acp.rejectAlways ? neverAgain : null, moreTime)
        : null
      : moreChoices(
          always,
          offersGrant ? this.grant.toggle : null,
          this.editor.toggle,
          denyAndStop,
          neverAgain,
          moreTime,
          this.editor.el,
          offersGrant ? this.grant.el : null,
        );
    this.controls = h(
      "div",
      { class: "card-decision" },
      h(
        "div",
        { class: "card-actions" },
        approve,
        h("span", { class: "deny-group" }, acp ? null : this.reason, this.denyButton),
        this.line,
      ),
      more,
    );
    this.el = h(
      "section",
      // A group, not a region: a long conversation holds many cards, often with the same name.
      {
        role: "group",
        class: "card approval-card",
        tabindex: "0",
        "aria-label": `Approval needed to run ${toolName}`,
      },
      h(
        "header",
        { class: "card-head" },
        h("span", { class: "card-title" }, "Allow ", h("code", { text: toolName }), "?"),
        risk ? h("span", { class: `chip risk risk-${risk}`, text: risk }) : null,
        this.countdown.el,
      ),
      assessmentView(assessment),
      mcpOriginLine(interaction.request),
      claimLine(claim),
      acp ? acpDetailsView(acp) : null,
      this.args,
      this.approvals,
      this.controls,
      this.receipt,
    );
    this.listenForKeys();
  }

  override update(interaction: InteractionState, context: CardContext): void {
    super.update(interaction, context);
    const count = interaction.resolution ? null : interaction.approvals;
    this.approvals.hidden = !count;
    if (count) setText(this.approvals, approvalsLine(count));
  }

  private approve(remember: boolean): void {
    void this.respond({ decision: "approve", remember });
  }

  private deny(stop: boolean): void {
    const reason = this.reason.value.trim() || undefined;
    void this.respond({ decision: "deny", ...(reason ? { reason } : {}), ...(stop ? { stop } : {}) });
  }

  protected lockControls(locked: boolean): void {
    for (const button of this.buttons) button.disabled = locked;
    this.reason.disabled = locked;
    this.editor.lock(locked);
    this.grant.lock(locked);
  }

  protected override refused(error: unknown): void {
    // The server names what in an edit does not fit the tool; show it beside the editor too.
    const message = (error as { message?: unknown } | null)?.message;
    this.editor.say(typeof message === "string" ? message : null);
  }

  protected collapse(): void {
    this.controls.remove();
    this.editor.el.remove();
    this.grant.el.remove();
    // Once decided, the tool card's collapsed "Arguments" keeps them one click away.
    this.args.hidden = true;
  }

  /**
   * Only a focused button (or "More…") acts on Enter: Enter elsewhere on the card moves to Approve (so approving
   * takes a second, deliberate Enter), Enter in the reason field denies; Esc moves to Deny.
   */
  protected handleCardKey(event: KeyboardEvent): boolean {
    if (!this.open() || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "Escape") {
      this.denyButton.focus();
      return true;
    }
    if (event.key !== "Enter" || event.target instanceof HTMLButtonElement) return false;
    // Enter on "More…" opens it, as on any disclosure.
    if (event.target instanceof HTMLElement && event.target.tagName === "SUMMARY") return false;
    if (this.editor.holds(event.target) || this.grant.el.contains(event.target as Node)) return false;
    if (event.target === this.reason) this.deny(false);
    else if (isTextEntry(event.target)) return false;
    else this.approveButton.focus();
    return true;
  }
}

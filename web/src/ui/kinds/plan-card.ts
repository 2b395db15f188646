// The plan card (ExitPlanMode): the plan as markdown and Claude Code's three choices — approve with
// edits accepted, approve and review each action, or keep planning with feedback for the model.
import {
  PLAN_OPTIONS,
  type PlanChoice,
  type PlanOption,
  planOf,
  planReachesBeyondCard,
  planResponse,
} from "../../../../src/interactions/kinds/plan-view";
import type { InteractionState } from "../../session-state";
import { AnswerableCard } from "../cards/answerable-card";
import { isTextEntry } from "../cards/interaction-card";
import { mayChoose, OWNER_CHOICE, roleOfPage } from "../cards/owner-choices";
import { h } from "../dom";
import { renderMarkdown } from "../markdown";

/** The two choices that approve the plan; keeping on planning sends feedback instead. */
type ApprovingChoice = Exclude<PlanChoice, "keep_planning">;

export class PlanCard extends AnswerableCard {
  readonly el: HTMLElement;
  private readonly plan = h("div", { class: "plan-text markdown" });
  private readonly feedback: HTMLTextAreaElement;
  private readonly buttons: HTMLButtonElement[];
  private readonly keepPlanning: HTMLButtonElement;
  private readonly controls: HTMLElement;

  constructor(interaction: InteractionState) {
    super();
    renderMarkdown(this.plan, planOf(interaction.request));
    const [acceptOption, reviewOption, keepOption] = PLAN_OPTIONS as [PlanOption, PlanOption, PlanOption];
    const choice = ({ label, key, choice }: PlanOption, primary = false) => {
      const value = choice as ApprovingChoice;
      return h(
        "button",
        {
          type: "button",
          class: [primary ? "primary" : "", value === "accept_edits" ? OWNER_CHOICE : ""].join(" ").trim(),
          on: { click: () => this.approve(value) },
        },
        h("span", { class: "option-key", "aria-hidden": "true", text: key }),
        label,
      );
    };
    const acceptEdits = choice(acceptOption, true);
    const reviewEach = choice(reviewOption);
    this.feedback = h("textarea", {
      class: "plan-feedback",
      rows: 2,
      maxlength: "4000",
      placeholder: "What should change? (optional)",
      "aria-label": "Feedback for the agent's plan (optional)",
    });
    this.keepPlanning = h(
      "button",
      { type: "button", on: { click: () => this.keepPlanningWithFeedback() } },
      h("span", { class: "option-key", "aria-hidden": "true", text: keepOption.key }),
      keepOption.label,
    );
    this.buttons = [acceptEdits, reviewEach, this.keepPlanning];
    this.controls = h(
      "div",
      { class: "plan-actions" },
      h("div", { class: "card-actions" }, acceptEdits, reviewEach),
      h("div", { class: "plan-keep" }, this.feedback, this.keepPlanning),
      this.line,
    );
    this.el = h(
      "section",
      {
        role: "group",
        class: "card plan-card",
        tabindex: "0",
        "aria-label": "The agent's plan, waiting for your approval",
      },
      h(
        "header",
        { class: "card-head" },
        h("span", { class: "card-title", text: "Ready to carry out this plan?" }),
        this.countdown.el,
      ),
      this.plan,
      this.controls,
      this.receipt,
    );
    this.listenForKeys();
  }

  private approve(choice: ApprovingChoice): void {
    // Only the owner is offered accept_edits (its button is hidden for others; so is its key).
    const response = planResponse(choice);
    if (!mayChoose(roleOfPage(this.el), planReachesBeyondCard(response))) return;
    void this.respond(response);
  }

  private keepPlanningWithFeedback(): void {
    void this.respond(planResponse("keep_planning", this.feedback.value));
  }

  protected lockControls(locked: boolean): void {
    for (const button of this.buttons) button.disabled = locked;
    this.feedback.disabled = locked;
  }

  protected collapse(): void {
    this.controls.remove();
  }

  /** 1 and 2 approve, 3 or Enter in the feedback keeps planning, Esc moves to the feedback. */
  protected handleCardKey(event: KeyboardEvent): boolean {
    if (!this.open() || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "Escape") {
      this.feedback.focus();
      return true;
    }
    if (event.target === this.feedback) {
      if (event.key !== "Enter" || event.shiftKey) return false;
      this.keepPlanningWithFeedback();
      return true;
    }
    if (isTextEntry(event.target)) return false;
    if (event.key === "1") this.approve("accept_edits");
    else if (event.key === "2") this.approve("review_each");
    else if (event.key === "3") this.keepPlanningWithFeedback();
    else return false;
    return true;
  }
}

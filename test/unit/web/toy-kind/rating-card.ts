// The toy rating kind's web renderer (docs/interactive-tools.md): five star buttons, a countdown
// and the receipt, all from AnswerableCard. It answers with the generic `respond`.

import type { InteractionState } from "../../../../web/src/session-state";
import { AnswerableCard } from "../../../../web/src/ui/cards/answerable-card";
import { h } from "../../../../web/src/ui/dom";
import type { RatingRequest } from "../../interactions/toy-kind/rating";

export class RatingCard extends AnswerableCard {
  readonly el: HTMLElement;
  private readonly stars: HTMLButtonElement[];

  constructor(interaction: InteractionState) {
    super();
    const { subject } = interaction.request as RatingRequest;
    this.stars = [1, 2, 3, 4, 5].map((stars) =>
      h("button", { type: "button", text: "★".repeat(stars), on: { click: () => this.rate(stars) } }),
    );
    const controls = h("div", { class: "card-actions" }, ...this.stars, this.line);
    this.el = h(
      "section",
      { class: "card rating-card", tabindex: "0", "aria-label": `Rate ${subject}` },
      h(
        "header",
        { class: "card-head" },
        h("span", { class: "card-title", text: `Rate ${subject}` }),
        this.countdown.el,
      ),
      controls,
      this.receipt,
    );
    this.listenForKeys();
  }

  private rate(stars: number): void {
    void this.respond({ stars });
  }

  protected lockControls(locked: boolean): void {
    for (const star of this.stars) star.disabled = locked;
  }

  protected collapse(): void {
    this.el.querySelector(".card-actions")?.remove();
  }

  /** Keys 1–5 give that many stars (AnswerableCard ignores them for the card's first second). */
  protected handleCardKey(event: KeyboardEvent): boolean {
    if (!this.open() || !/^[1-5]$/.test(event.key)) return false;
    this.rate(Number(event.key));
    return true;
  }
}

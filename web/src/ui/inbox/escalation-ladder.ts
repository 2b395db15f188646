// A card's escalation ladder on the inbox page: each rung (when, how, whom), the ones that ran
// marked, so the person sees who has been told and who is next. Hidden on a card without one.
import type { CardDeadlineTerms } from "../../../../src/protocol/cards/deadline-policy";
import { h } from "../dom";

const CHANNEL_WORDS = { push: "a notification", chat: "chat", email: "email" } as const;

function minutes(ms: number): string {
  const whole = Math.round(ms / 60_000);
  return whole < 1 ? `${Math.round(ms / 1000)} s` : `${whole} min`;
}

export class EscalationLadder {
  readonly el = h("ol", {
    class: "escalation-ladder",
    "aria-label": "Who is told while this waits",
    hidden: true,
  });

  private drawn = "";

  /**
   * Draws the ladder in `terms` (the card's deadline policy as the inbox holds it). Every card's
   * ladder is updated on every inbox event, so one that shows these terms already is left alone.
   */
  update(terms: CardDeadlineTerms | undefined): void {
    const rungs = terms?.escalate ?? [];
    const reached = terms?.escalated ?? 0;
    const drawing = JSON.stringify([rungs, reached]);
    if (drawing === this.drawn) return;
    this.drawn = drawing;
    this.el.hidden = rungs.length === 0;
    this.el.replaceChildren(
      ...rungs.map((rung, i) => {
        const how = rung.notify.map((channel) => CHANNEL_WORDS[channel]).join(", ");
        const whom = rung.to === "me" ? "you" : "your approvers";
        const done = i < reached;
        return h("li", {
          class: done ? "rung rung-done" : "rung",
          "data-rung": String(i),
          text: `${done ? "Done" : "Next"}: after ${minutes(rung.afterMs)}, ${how} to ${whom}`,
        });
      }),
    );
  }
}

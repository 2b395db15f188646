// A tool call in the transcript: name, phase, readable arguments and result, with a card for each
// prompt the call waits on (its own question or approval, or the forms it opens while it runs).
import { prettyArguments } from "../../interaction-view";
import { openInteraction, type ToolItem, type ToolPhase } from "../../session-state";
import type { CardContext, InteractionCard } from "../cards/interaction-card";
import { h, setText } from "../dom";
import { rendererFor } from "./interaction-renderers";

const PHASE_TEXT: Record<ToolPhase, string> = {
  streaming: "preparing…",
  pending: "running…",
  done: "done",
  error: "error",
};

function phaseText(item: ToolItem): string {
  const waiting = openInteraction(item);
  if (waiting) return rendererFor(waiting.kind).waiting;
  // A delegation stays pending while the agent it started holds the conversation.
  if (item.name === "Agent" && item.phase === "pending") return "agent at work…";
  return PHASE_TEXT[item.phase];
}

export class ToolCard {
  readonly el: HTMLElement;
  private readonly phase = h("span", { class: "tool-phase" });
  private readonly args = h("pre", { class: "tool-args" });
  private readonly argsBox = h(
    "details",
    { class: "tool-args-box" },
    h("summary", { text: "Arguments" }),
    this.args,
  );
  private readonly resultText = h("pre", { class: "tool-result-text" });
  private readonly resultNote = h("p", { class: "hint", hidden: true });
  private readonly result = h(
    "details",
    { class: "tool-result", hidden: true },
    h("summary", { text: "Result" }),
    this.resultText,
    this.resultNote,
  );
  private readonly slot = h("div", { class: "interaction-slot" });
  private readonly name = h("code", { class: "tool-name" });
  private readonly agent = h("span", { class: "tool-agent", hidden: true });
  /** One card per prompt, by interaction id, in the order they were asked. */
  readonly cards = new Map<string, InteractionCard>();

  constructor() {
    this.el = h(
      "article",
      { class: "tool-card" },
      h(
        "header",
        { class: "tool-head" },
        h("span", { class: "tool-icon", "aria-hidden": "true", text: "⚙" }),
        this.name,
        this.agent,
        this.phase,
      ),
      this.argsBox,
      this.slot,
      this.result,
    );
  }

  update(item: ToolItem, context: CardContext): void {
    for (const interaction of item.interactions) {
      let card = this.cards.get(interaction.id);
      if (!card) {
        card = rendererFor(interaction.kind).create(interaction, item);
        this.cards.set(interaction.id, card);
        this.slot.appendChild(card.el);
      }
      card.update(interaction, context);
    }
    const standsAlone = item.interactions.some((i) => rendererFor(i.kind).standsForTool(i));
    this.el.dataset.phase = item.phase;
    this.el.dataset.toolCallId = item.toolCallId;
    this.el.classList.toggle("is-question", standsAlone);
    setText(this.name, item.name || "tool");
    this.agent.hidden = !item.agent;
    setText(this.agent, item.agent ? `by ${item.agent}` : "");
    if (item.agent) this.el.dataset.agent = item.agent;
    setText(this.phase, phaseText(item));
    // A card that stands for the call shows the request itself; an approval shows the arguments.
    this.argsBox.hidden = standsAlone || openInteraction(item) !== null;
    if (!this.argsBox.hidden) setText(this.args, prettyArguments(item));
    const result = item.result;
    this.result.hidden = !result || standsAlone;
    if (result && !standsAlone) {
      setText(this.resultText, result.content);
      this.result.classList.toggle("is-error", result.isError);
      this.resultNote.hidden = !result.truncated;
      setText(this.resultNote, result.truncated ? "Output was truncated." : "");
      if (result.isError) this.result.open = true;
    }
  }

  dispose(): void {
    for (const card of this.cards.values()) card.dispose();
  }
}

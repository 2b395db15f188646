// A tool call in the transcript: name, phase, readable arguments and result, with the question or
// approval card embedded when the call waits for a person.
import { prettyArguments } from "../interaction-view";
import type { ToolItem, ToolPhase } from "../session-state";
import { h, setText } from "./dom";
import type { CardContext, InteractionCard } from "./interaction-card";
import { renderInteraction } from "./interaction-renderers";

const PHASE_TEXT: Record<ToolPhase, string> = {
  streaming: "preparing…",
  pending: "running…",
  done: "done",
  error: "error",
};

function phaseText(item: ToolItem): string {
  const interaction = item.interaction;
  if (interaction && !interaction.resolution)
    return interaction.kind === "question" ? "waiting for you" : "needs approval";
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
  card: InteractionCard | null = null;

  constructor() {
    this.el = h(
      "article",
      { class: "tool-card" },
      h(
        "header",
        { class: "tool-head" },
        h("span", { class: "tool-icon", "aria-hidden": "true", text: "⚙" }),
        this.name,
        this.phase,
      ),
      this.argsBox,
      this.slot,
      this.result,
    );
  }

  update(item: ToolItem, context: CardContext): void {
    const interaction = item.interaction;
    if (interaction && !this.card) {
      this.card = renderInteraction(interaction.kind, item);
      this.slot.appendChild(this.card.el);
    }
    this.card?.update(item, context);
    const isQuestion = interaction?.kind === "question" || item.name === "AskUserQuestion";
    this.el.dataset.phase = item.phase;
    this.el.dataset.toolCallId = item.toolCallId;
    this.el.classList.toggle("is-question", isQuestion);
    setText(this.name, item.name || "tool");
    setText(this.phase, phaseText(item));
    // Question cards show the questions themselves; approval cards show the arguments.
    this.argsBox.hidden = isQuestion || (interaction !== null && !interaction.resolution);
    if (!this.argsBox.hidden) setText(this.args, prettyArguments(item));
    const result = item.result;
    this.result.hidden = !result || isQuestion;
    if (result && !isQuestion) {
      setText(this.resultText, result.content);
      this.result.classList.toggle("is-error", result.isError);
      this.resultNote.hidden = !result.truncated;
      setText(this.resultNote, result.truncated ? "Output was truncated." : "");
      if (result.isError) this.result.open = true;
    }
  }

  dispose(): void {
    this.card?.dispose();
  }
}

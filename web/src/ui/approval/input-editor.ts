// Edit-then-approve on an approval card: the tool's arguments as editable JSON, parsed on approve,
// with the problem shown inline; the server checks the edit against the tool's own input schema.
import { h } from "../dom";

export class InputEditor {
  readonly el: HTMLElement;
  readonly toggle: HTMLButtonElement;
  private readonly text: HTMLTextAreaElement;
  private readonly problem: HTMLElement;
  private readonly approveButton: HTMLButtonElement;

  constructor(input: unknown, onApprove: (edited: Record<string, unknown>) => void) {
    this.text = h("textarea", {
      class: "input-editor-text",
      rows: "8",
      spellcheck: "false",
      "aria-label": "Arguments as JSON",
    });
    this.text.value = JSON.stringify(input ?? {}, null, 2);
    this.problem = h("p", { class: "input-editor-problem", role: "alert", hidden: true });
    this.approveButton = h("button", {
      type: "button",
      class: "primary",
      text: "Approve edited",
      on: {
        click: () => {
          const edited = this.read();
          if (edited) onApprove(edited);
        },
      },
    });
    this.text.addEventListener("input", () => this.say(null));
    this.el = h(
      "div",
      { class: "input-editor", hidden: true },
      this.text,
      this.problem,
      h("div", { class: "card-actions" }, this.approveButton),
    );
    this.toggle = h("button", {
      type: "button",
      text: "Edit",
      title: "Edit the arguments, then approve the edited call",
      "aria-expanded": "false",
      on: { click: () => this.show(this.el.hidden !== false) },
    });
  }

  /** Whether the editor holds the focus (Enter there is a newline, not an approval). */
  holds(target: EventTarget | null): boolean {
    return target === this.text;
  }

  lock(locked: boolean): void {
    this.text.disabled = locked;
    this.approveButton.disabled = locked;
    this.toggle.disabled = locked;
  }

  /** Shows the server's refusal of an edit next to the editor. */
  say(message: string | null): void {
    this.problem.hidden = message === null;
    this.problem.textContent = message ?? "";
  }

  private show(open: boolean): void {
    this.el.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) this.text.focus();
  }

  /** The edited arguments, or null (with the problem shown) when they are not a JSON object. */
  private read(): Record<string, unknown> | null {
    let value: unknown;
    try {
      value = JSON.parse(this.text.value);
    } catch (error) {
      this.say(`Not valid JSON: ${(error as Error).message}`);
      return null;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.say("The arguments must be a JSON object ({ … })");
      return null;
    }
    this.say(null);
    return value as Record<string, unknown>;
  }
}

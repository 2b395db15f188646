// The one-line note under an inbox section: an empty state in neutral words, or a problem in the
// alert colour — so "nothing yet" never reads as an error.
import { h, setText } from "../dom";

export type NoteTone = "neutral" | "problem";

/** An empty note; hidden by the stylesheet until it says something. */
export function inboxNote(): HTMLElement {
  return h("p", { class: "inbox-note", role: "status" });
}

/** Says `text` in `tone`; an empty text hides the note. */
export function sayNote(note: HTMLElement, text: string, tone: NoteTone): void {
  setText(note, text);
  note.classList.toggle("inbox-alert", tone === "problem");
  note.classList.toggle("hint", tone === "neutral");
}

// The message box: Enter sends, Shift+Enter adds a line; while a turn runs a message is queued,
// while a card waits for an answer the box is locked, and Cancel stops the running turn.

import type { ConnectionInfo } from "../../../../client/session-client";
import { isTopAgentPrompt, pendingInteractions } from "../../interaction-view";
import type { SessionView } from "../../session-state";
import { h, setText } from "../dom";

export interface ComposerActions {
  send(text: string): Promise<void>;
  cancel(): Promise<void>;
  /** Ends the delegated agent `frameId` (the top of the stack); its parent resumes. */
  endAgent(frameId: string): Promise<void>;
}

export class Composer {
  readonly el: HTMLFormElement;
  readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly cancelButton: HTMLButtonElement;
  private readonly endAgentButton: HTMLButtonElement;
  private topFrameId: string | null = null;
  private readonly error = h("p", { class: "composer-error", role: "alert", hidden: true });
  private sending = false;
  private locked = true;
  private viewOnly = false;
  private viewOnlyReason = "This link is view only";

  constructor(private readonly actions: ComposerActions) {
    this.input = h("textarea", {
      rows: 2,
      maxlength: "32000",
      "aria-label": "Message to the agent",
      placeholder: "Connecting…",
      disabled: true,
    });
    this.sendButton = h("button", { type: "submit", class: "primary", text: "Send", disabled: true });
    this.cancelButton = h("button", {
      type: "button",
      class: "danger",
      text: "Cancel turn",
      hidden: true,
      on: { click: () => void this.actions.cancel() },
    });
    this.endAgentButton = h("button", {
      type: "button",
      class: "end-agent",
      text: "End this agent",
      hidden: true,
      on: { click: () => this.topFrameId && void this.actions.endAgent(this.topFrameId) },
    });
    this.el = h(
      "form",
      { class: "composer", on: { submit: (event) => this.onSubmit(event) } },
      this.input,
      h("div", { class: "composer-buttons" }, this.sendButton, this.endAgentButton, this.cancelButton),
      this.error,
    );
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.el.requestSubmit();
      }
    });
    this.input.addEventListener("input", () => this.refreshButton());
  }

  /** A view-only link may read but not send; the server would refuse it anyway. */
  /** Closes the box when nobody may message here; `why` replaces the view-only wording. */
  setViewOnly(viewOnly: boolean, why = "This link is view only"): void {
    this.viewOnly = viewOnly;
    this.viewOnlyReason = why;
  }

  update(view: SessionView, connection: ConnectionInfo): void {
    const busy = view.status === "running" || view.status === "awaiting_input";
    const top = view.stack.at(-1) ?? null;
    const whom = top ? top.agent : "the agent";
    this.topFrameId = top?.frameId ?? null;
    this.endAgentButton.hidden = !top || !view.connectedOnce || this.viewOnly;
    setText(this.endAgentButton, top ? `End ${top.agent}` : "End this agent");
    this.endAgentButton.title = top ? `Stop ${top.agent} and hand the conversation back to its caller` : "";
    this.input.setAttribute("aria-label", `Message to ${whom}`);
    // An open question takes a chat message as its answer, so the box stays open for one; only the
    // top agent's questions do, since a message always goes to the agent on top.
    const chatAnswers = pendingInteractions(view).some(
      (prompt) => prompt.interaction.readsChat === true && isTopAgentPrompt(view, prompt.interaction),
    );
    const waiting = view.status === "awaiting_input" && !chatAnswers;
    this.locked = this.viewOnly || !view.connectedOnce || waiting || connection.state === "closed";
    this.input.disabled = this.locked;
    this.input.placeholder = this.viewOnly
      ? this.viewOnlyReason
      : !view.connectedOnce
        ? "Connecting…"
        : connection.state !== "connected"
          ? "Reconnecting — a message sent now goes out once the connection is back"
          : chatAnswers
            ? "Answer the card above, or reply here in your own words"
            : view.status === "awaiting_input"
              ? "Answer the card above to continue (or cancel the turn)"
              : view.status === "running"
                ? "The agent is working — a message sent now waits its turn"
                : `Message ${whom} (Enter to send, Shift+Enter for a new line)`;
    setText(this.sendButton, view.status === "running" ? "Queue" : "Send");
    this.cancelButton.hidden = !busy || this.viewOnly;
    this.refreshButton();
  }

  private refreshButton(): void {
    this.sendButton.disabled = this.locked || this.sending || this.input.value.trim() === "";
  }

  private async onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    const text = this.input.value;
    if (this.locked || this.sending || text.trim() === "") return;
    this.sending = true;
    this.error.hidden = true;
    this.input.value = "";
    // A clicked Send button is about to be disabled; keep focus in the box for the next message.
    if (document.activeElement === this.sendButton) this.input.focus();
    this.refreshButton();
    try {
      await this.actions.send(text);
    } catch (error) {
      // Give the text back so nothing typed is lost.
      if (this.input.value === "") this.input.value = text;
      this.error.hidden = false;
      setText(this.error, `Not sent: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.sending = false;
      this.refreshButton();
    }
  }

  focus(): void {
    if (!this.input.disabled) this.input.focus();
  }
}

// The agent stack as a breadcrumb ("Main › researcher › note-keeper"): who holds the conversation.
import type { SessionView } from "../../session-state";
import { h } from "../dom";

export class AgentBreadcrumb {
  readonly el = h("nav", { class: "agent-stack", "aria-label": "Agent stack", hidden: true });
  private shown = "";

  update(view: SessionView): void {
    const names = ["Main", ...view.stack.map((frame) => frame.agent)];
    const key = view.stack.map((frame) => frame.frameId).join(" ");
    this.el.hidden = view.stack.length === 0;
    if (key === this.shown) return;
    this.shown = key;
    this.el.replaceChildren(
      h("span", { class: "agent-stack-label", text: "Talking to" }),
      ...names.map((name, i) =>
        h("span", {
          class: i === names.length - 1 ? "agent-crumb current" : "agent-crumb",
          text: name,
          ...(i === names.length - 1 ? { "aria-current": "true" } : {}),
        }),
      ),
    );
  }
}

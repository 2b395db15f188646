// The transcript: a keyed list of item views, created once per item and updated in place, so
// streaming text never rebuilds the page and half-filled cards keep their state.
import { namesSomeone } from "../../../../src/protocol/access/people";
import type { SessionView, TranscriptItem, UserItem } from "../../session-state";
import type { CardContext, InteractionCard } from "../cards/interaction-card";
import { h, setText } from "../dom";
import { renderMarkdown } from "../markdown";
import { ToolCard } from "./tool-card";

interface ItemView {
  el: HTMLElement;
  update(item: TranscriptItem, context: CardContext): void;
  dispose?(): void;
  cards?: ReadonlyMap<string, InteractionCard>;
}

/** Who a message is from, naming the delegated agent when one is speaking or spoken to. */
function whoOf(item: TranscriptItem): string {
  if (item.kind === "user") {
    // A person or a link the server named sent it; else the one person of this deployment.
    const sender = namesSomeone(item.by) ? item.by : "You";
    return item.agent ? `${sender} → ${item.agent}` : sender;
  }
  if (item.kind === "assistant") return item.agent ?? "Agent";
  return "";
}

function messageView(item: TranscriptItem): ItemView {
  const body = h("div", { class: item.kind === "assistant" ? "message-text markdown" : "message-text" });
  const who = whoOf(item);
  // A notice is a live region, which an <article> may not be; messages stay articles.
  const el = h(
    item.kind === "notice" ? "div" : "article",
    { class: `message ${item.kind}${item.kind === "notice" ? ` notice-${item.level}` : ""}` },
    who ? h("span", { class: "message-who", text: who }) : null,
    body,
  );
  if (item.kind === "notice") el.setAttribute("role", item.level === "error" ? "alert" : "status");
  return {
    el,
    update(next) {
      if (next.kind === "tool") return;
      // Model text is markdown; what people type is shown exactly as typed.
      if (next.kind === "assistant") renderMarkdown(body, next.text);
      else setText(body, next.text);
      const streaming = next.kind === "assistant" && next.streaming;
      el.classList.toggle("streaming", streaming);
      // Screen readers announce the message once it is complete, not every streamed piece.
      el.setAttribute("aria-busy", String(streaming));
      if (next.kind === "user" && next.deviceId) el.dataset.device = next.deviceId;
      if (next.kind === "user" && next.delivery !== undefined) showDelivery(el, next);
      if ((next.kind === "user" || next.kind === "assistant") && next.agent) {
        el.dataset.agent = next.agent;
        el.classList.add("from-subagent");
      }
    },
  };
}

/** A message to an agent that runs elsewhere says whether its agent has it yet. */
function showDelivery(el: HTMLElement, item: UserItem): void {
  let state = el.querySelector<HTMLElement>(".message-delivery");
  if (!state) {
    state = h("span", { class: "message-delivery", role: "status" });
    el.append(state);
  }
  const interrupt = item.interrupt ? " (asked to interrupt)" : "";
  setText(state, item.delivery ? `Delivered by ${item.delivery}` : `Waiting for the agent${interrupt}`);
  el.dataset.delivery = item.delivery ? "delivered" : "waiting";
}

function viewFor(item: TranscriptItem): ItemView {
  if (item.kind !== "tool") return messageView(item);
  const card = new ToolCard();
  return {
    el: card.el,
    update: (next, context) => next.kind === "tool" && card.update(next, context),
    dispose: () => card.dispose(),
    cards: card.cards,
  };
}

export class Transcript {
  readonly el = h("div", {
    class: "transcript",
    role: "log",
    "aria-live": "polite",
    "aria-label": "Conversation",
  });
  readonly queuedEl = h("ol", { class: "queued", "aria-label": "Queued messages" });
  private readonly views = new Map<string, { view: ItemView; item: TranscriptItem }>();
  private lastContext: CardContext | null = null;

  /** Brings the DOM in line with `view`; untouched items are skipped by identity. */
  render(view: SessionView, context: CardContext): void {
    const contextChanged = context !== this.lastContext;
    this.lastContext = context;
    const wanted = new Set(view.order);
    for (const [id, entry] of this.views) {
      if (wanted.has(id)) continue;
      entry.view.dispose?.();
      entry.view.el.remove();
      this.views.delete(id);
    }
    let previous: Element | null = null;
    for (const id of view.order) {
      const item = view.items.get(id);
      if (!item) continue;
      let entry = this.views.get(id);
      if (!entry) {
        entry = { view: viewFor(item), item };
        this.views.set(id, entry);
        entry.view.update(item, context);
      } else if (entry.item !== item || contextChanged) {
        entry.item = item;
        entry.view.update(item, context);
      }
      const expected: Element | null = previous ? previous.nextElementSibling : this.el.firstElementChild;
      if (expected !== entry.view.el) this.el.insertBefore(entry.view.el, expected);
      previous = entry.view.el;
    }
    this.renderQueued(view.queued);
  }

  private renderQueued(queued: readonly UserItem[]): void {
    this.queuedEl.hidden = queued.length === 0;
    const texts = queued.map((m) => m.text);
    const current = Array.from(this.queuedEl.children, (li) => li.getAttribute("data-id"));
    if (current.join("\n") === queued.map((m) => m.id).join("\n")) return;
    this.queuedEl.replaceChildren(
      ...queued.map((m, i) =>
        h(
          "li",
          { class: "message user queued-message", "data-id": m.id },
          h("span", { class: "message-who", text: "Queued" }),
          h("div", { class: "message-text", text: texts[i] }),
        ),
      ),
    );
  }

  /** The interaction card that keyboard shortcuts act on when nothing else has focus. */
  card(itemId: string, interactionId: string): InteractionCard | null {
    return this.views.get(itemId)?.view.cards?.get(interactionId) ?? null;
  }
}

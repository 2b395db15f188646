// Waiting cards on the inbox, grouped by session, drawn by the same tool and interaction cards as
// the session page; a card that resolves stays in place with its receipt until the page reloads.
import type { ApprovalCount } from "../../../../src/protocol/cards/approval-count";
import type { InboxCard, InboxView, InteractionResolution } from "../../../../src/protocol/index";
import type { InteractionState, ToolItem } from "../../session-state";
import type { CardContext } from "../cards/interaction-card";
import { h, setAttr, setText } from "../dom";
import { ToolCard } from "../transcript/tool-card";
import { EscalationLadder } from "./escalation-ladder";
import { sessionTitle } from "./inbox-sessions";

interface Shown {
  tool: ToolCard;
  item: ToolItem;
  context: CardContext;
  ladder: EscalationLadder;
}

interface Group {
  el: HTMLElement;
  heading: HTMLElement;
  cards: HTMLElement;
}

function keyOf(sessionId: string, interactionId: string): string {
  return `${sessionId}/${interactionId}`;
}

/** The tool call around an inbox card, as the session page would hold it while the card waits. */
function toolItemOf(card: InboxCard): ToolItem {
  const interaction: InteractionState = {
    toolCallId: card.toolCallId,
    interactionId: card.interactionId,
    kind: card.kind,
    toolName: card.toolName,
    request: card.request,
    createdAt: card.createdAt,
    expiresAt: card.expiresAt,
    ...(card.deadlinePolicy ? { deadlinePolicy: card.deadlinePolicy } : {}),
    ...(card.approvals ? { approvals: card.approvals } : {}),
    id: card.interactionId,
    resolution: null,
  };
  const request = card.request as { input?: unknown } | null;
  return {
    kind: "tool",
    id: `tool:${card.toolCallId}`,
    toolCallId: card.toolCallId,
    name: card.toolName,
    argsJson: "",
    argsAhead: [],
    input: request && typeof request === "object" && "input" in request ? request.input : undefined,
    phase: "pending",
    result: null,
    interactions: [interaction],
    agent: null,
  };
}

export class InboxCards {
  private readonly empty = h("p", { class: "hint inbox-empty", text: "Nothing is waiting for you." });
  private readonly groupsEl = h("div", { class: "inbox-groups" });
  readonly el = h(
    "section",
    { class: "inbox-waiting", "aria-labelledby": "inbox-waiting-heading" },
    h("h2", { id: "inbox-waiting-heading", text: "Waiting for you" }),
    this.empty,
    this.groupsEl,
  );
  private readonly shown = new Map<string, Shown>();
  private readonly groups = new Map<string, Group>();

  /** `contextFor` says where a card's answers go: its own session, through the inbox. */
  constructor(private readonly contextFor: (sessionId: string) => CardContext) {}

  /**
   * Draws every open card of `view`; cards already shown keep their state (drafts, focus). A card
   * that left the view unresolved (it ended while this page was away) leaves the page.
   */
  update(view: InboxView): void {
    const sessions = new Map(view.sessions.map((session) => [session.sessionId, session]));
    const open = new Set(view.cards.map((card) => keyOf(card.sessionId, card.interactionId)));
    for (const [key, shown] of this.shown) {
      if (open.has(key) || shown.item.interactions[0]?.resolution) continue;
      shown.tool.dispose();
      shown.tool.el.remove();
      this.shown.delete(key);
    }
    for (const [sessionId, group] of this.groups) {
      if (group.cards.childElementCount > 0) continue;
      group.el.remove();
      this.groups.delete(sessionId);
    }
    for (const card of view.cards) {
      const key = keyOf(card.sessionId, card.interactionId);
      const known = this.shown.get(key);
      if (known) {
        known.ladder.update(card.deadlinePolicy);
        this.extend(card.sessionId, card.interactionId, card.expiresAt);
        if (card.approvals) this.countApprovals(card.sessionId, card.interactionId, card.approvals);
        continue;
      }
      const item = toolItemOf(card);
      const tool = new ToolCard();
      tool.el.dataset.sessionId = card.sessionId;
      tool.el.dataset.interactionId = card.interactionId;
      const context = this.contextFor(card.sessionId);
      const ladder = new EscalationLadder();
      this.shown.set(key, { tool, item, context, ladder });
      this.groupOf(card.sessionId).cards.appendChild(tool.el);
      tool.update(item, context);
      ladder.update(card.deadlinePolicy);
      tool.el.appendChild(ladder.el);
    }
    for (const [sessionId, group] of this.groups) {
      setText(group.heading, sessionTitle(sessions.get(sessionId)));
      // Every group is visited on every event: only a change is written.
      setAttr(group.el, "data-agent", sessions.get(sessionId)?.agent ?? "");
    }
    this.empty.hidden = this.shown.size > 0;
  }

  /** Shows how a card ended (from the inbox stream, or a 409's winner) in place of its controls. */
  resolve(sessionId: string, resolution: InteractionResolution): void {
    const shown = this.shown.get(keyOf(sessionId, resolution.interactionId ?? resolution.toolCallId));
    if (!shown) return;
    const [interaction] = shown.item.interactions;
    if (!interaction || interaction.resolution) return;
    shown.item = {
      ...shown.item,
      phase: "done",
      interactions: [{ ...interaction, resolution: { ...resolution, kind: interaction.kind } }],
    };
    shown.tool.update(shown.item, shown.context);
  }

  /** Another distinct approval of a card that needs several: "1 of 2 approvals". */
  countApprovals(sessionId: string, interactionId: string, approvals: ApprovalCount): void {
    const shown = this.shown.get(keyOf(sessionId, interactionId));
    const interaction = shown?.item.interactions[0];
    if (!shown || !interaction || interaction.resolution) return;
    if ((interaction.approvals?.given ?? -1) >= approvals.given) return;
    shown.item = { ...shown.item, interactions: [{ ...interaction, approvals }] };
    shown.tool.update(shown.item, shown.context);
  }

  /**
   * "More time" moved a card's deadline (here or on another device): its countdown re-aims, keeping
   * the card's drafts. An older deadline (a late copy of the view) changes nothing.
   */
  extend(sessionId: string, interactionId: string, expiresAt: number): void {
    const shown = this.shown.get(keyOf(sessionId, interactionId));
    const [interaction] = shown?.item.interactions ?? [];
    if (!shown || !interaction || interaction.resolution || expiresAt <= interaction.expiresAt) return;
    shown.item = { ...shown.item, interactions: [{ ...interaction, expiresAt }] };
    shown.tool.update(shown.item, shown.context);
  }

  /** The card's kind and tool call, which a resolution from the inbox stream does not repeat. */
  cardOf(sessionId: string, interactionId: string): InteractionState | null {
    return this.shown.get(keyOf(sessionId, interactionId))?.item.interactions[0] ?? null;
  }

  private groupOf(sessionId: string): Group {
    let group = this.groups.get(sessionId);
    if (!group) {
      const headingId = `inbox-group-${sessionId}`;
      const heading = h("h3", { id: headingId });
      const cards = h("div", { class: "inbox-group-cards" });
      // Two sessions may share a title: the section's name adds the session's short id, so each
      // landmark is told apart.
      const el = h(
        "section",
        {
          class: "inbox-group",
          "data-session-id": sessionId,
          "aria-labelledby": `${headingId} ${headingId}-id`,
        },
        heading,
        h("span", { id: `${headingId}-id`, hidden: true, text: `session ${sessionId.slice(0, 8)}` }),
        cards,
      );
      group = { el, heading, cards };
      this.groups.set(sessionId, group);
      this.groupsEl.appendChild(el);
    }
    return group;
  }
}

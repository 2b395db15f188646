// "For Ana": the cards of each person this browser was invited to answer for, within the scope they
// gave, answered in place as this approver (one call at a time: the page offers no grant or
// "always", as for an `answer` link), live over the approver's own socket on the inviter's inbox.
import { ApiError } from "../../../../client/session-api";
import type { CommandOutcome } from "../../../../client/session-client";
import type { AnsweringView } from "../../../../src/people/answering-view";
import type { InboxView, InteractionResolution } from "../../../../src/protocol/index";
import { approverChatCalls } from "../../approver-chat-api";
import { forgetApprover, type KeptApprover, keptApprovers } from "../../approver-credentials";
import { answerFor, answeringTicket } from "../../people-api";
import { chatLinksPanel } from "../account/chat-links";
import { h, setText } from "../dom";
import { InboxCards } from "../inbox/inbox-cards";
import { approverNotifyControl } from "./approver-notify";

/** The approver's view as the inbox's cards draw it: only the sessions their cards are in. */
function asInboxView(view: AnsweringView): InboxView {
  const sessions = view.sessions.map((session) => ({
    ...session,
    status: "waiting",
    createdAt: 0,
    lastActivity: 0,
    openCards: view.cards.filter((card) => card.sessionId === session.sessionId).length,
  })) as unknown as InboxView["sessions"];
  return { person: view.inviter, lastSeq: 0, sessions, cards: view.cards };
}

class AnsweringFor {
  private readonly status = h("p", { class: "inbox-connection", role: "status", text: "Connecting…" });
  private readonly alert = h("p", { class: "inbox-alert", role: "alert" });
  private readonly cards: InboxCards;
  readonly el: HTMLElement;
  private ended = false;

  constructor(
    private readonly kept: KeptApprover,
    index: number,
  ) {
    this.cards = new InboxCards((sessionId) => ({
      deviceId: "inbox",
      clockSkewMs: 0,
      actions: {
        respond: (interactionId, response) => this.respond({ sessionId, interactionId }, response),
        extendDeadline: async () => {
          throw new Error("More time is the person's own");
        },
      },
    }));
    const heading = this.cards.el.querySelector("h2");
    if (heading) {
      heading.id = `answering-heading-${index}`;
      setText(heading, `Waiting for ${kept.inviter}`);
      this.cards.el.setAttribute("aria-labelledby", heading.id);
    }
    // An approver's answers are one call each: `answer` hides what reaches beyond the card.
    this.el = h(
      "section",
      { class: "inbox-answering", "data-role": "answer", "aria-label": `Answering for ${kept.inviter}` },
      h("p", { class: "inbox-subtitle", text: `You answer ${kept.inviter}'s cards as ${kept.name}` }),
      approverNotifyControl(kept),
      this.status,
      this.alert,
      this.cards.el,
      // Their own chat accounts, for the cards a rung of a card's ladder sends approvers.
      chatLinksPanel(approverChatCalls(kept.credential, kept.inviter), {
        headingId: `answering-chat-${index}`,
        heading: `Chat apps for ${kept.inviter}'s cards`,
        intro: `Link a chat account of yours: the cards ${kept.inviter}'s escalation sends you arrive there, with buttons, in a direct message.`,
      }).el,
    );
  }

  private async respond(card: { sessionId: string; interactionId: string }, response: unknown) {
    try {
      const answered = await answerFor(this.kept.credential, this.kept.inviter, card, response);
      return { result: answered.result, alreadyResolved: false } satisfies CommandOutcome;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.resolution) {
        this.cards.resolve(card.sessionId, error.resolution as InteractionResolution);
        return { result: null, alreadyResolved: true, resolution: error.resolution };
      }
      throw error;
    }
  }

  async connect(): Promise<void> {
    if (this.ended) return;
    try {
      const { ticket } = await answeringTicket(this.kept.credential, this.kept.inviter);
      const url = new URL("/api/people/answering/ws", location.origin);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      url.searchParams.set("ticket", ticket);
      const socket = new WebSocket(url.toString());
      socket.addEventListener("open", () => setText(this.status, "Live"));
      socket.addEventListener("message", (event) => {
        const frame = JSON.parse(String(event.data)) as { view?: AnsweringView };
        if (frame.view) this.cards.update(asInboxView(frame.view));
      });
      socket.addEventListener("close", (event) => {
        if (event.code === 4001) return this.end();
        setText(this.status, "Reconnecting…");
        window.setTimeout(() => void this.connect(), 2_000);
      });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return this.end();
      setText(this.status, "Reconnecting…");
      window.setTimeout(() => void this.connect(), 5_000);
    }
  }

  /** Removed by the person: nothing more is shown or answered here, and the browser forgets it. */
  private end(): void {
    this.ended = true;
    forgetApprover(this.kept.inviter);
    setText(this.status, "Disconnected");
    setText(
      this.alert,
      `${this.kept.inviter} removed you as an approver; their cards are no longer yours to answer.`,
    );
    this.cards.update({ person: this.kept.inviter, lastSeq: 0, sessions: [], cards: [] });
  }
}

/** Every inviter this browser answers for, each live; empty (no element) when there is none. */
export function answeringSections(): HTMLElement[] {
  return keptApprovers().map((kept, index) => {
    const section = new AnsweringFor(kept, index);
    void section.connect();
    return section.el;
  });
}

// The person's sessions as their inbox lists them: title, status, agent and last activity, each
// with a button that opens its whole conversation.
import type { InboxSession, SessionStatus } from "../../../../src/protocol/index";
import { h, setText } from "../dom";

const STATUS_WORDS: Record<SessionStatus, string> = {
  idle: "Idle",
  running: "Working",
  awaiting_input: "Waiting for you",
  failed: "Failed",
};

function ago(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

/** The name a session goes by on the page. */
export function sessionTitle(session: Pick<InboxSession, "title"> | undefined): string {
  return session?.title || "Untitled session";
}

export class InboxSessions {
  private readonly list = h("ul", { class: "inbox-session-list" });
  private readonly empty = h("p", { class: "hint", text: "No sessions yet." });
  readonly el = h(
    "section",
    { class: "inbox-sessions", "aria-labelledby": "inbox-sessions-heading" },
    h("h2", { id: "inbox-sessions-heading", text: "Your sessions" }),
    this.empty,
    this.list,
  );

  constructor(private readonly open: (sessionId: string, button: HTMLButtonElement) => void) {}

  update(sessions: readonly InboxSession[], now: number): void {
    this.empty.hidden = sessions.length > 0;
    this.list.replaceChildren(...sessions.map((session) => this.row(session, now)));
  }

  private row(session: InboxSession, now: number): HTMLElement {
    const title = sessionTitle(session);
    const button = h("button", {
      type: "button",
      class: "inbox-open",
      text: "Open",
      "aria-label": `Open ${title}`,
    });
    button.addEventListener("click", () => this.open(session.sessionId, button));
    const waiting = h("span", { class: "inbox-session-waiting", hidden: session.openCards === 0 });
    setText(waiting, session.openCards === 1 ? "1 card waiting" : `${session.openCards} cards waiting`);
    return h(
      "li",
      { class: "inbox-session", "data-session-id": session.sessionId, "data-status": session.status },
      h("span", { class: "inbox-session-title", text: title }),
      h("span", { class: "inbox-session-status", text: STATUS_WORDS[session.status] }),
      h("span", { class: "inbox-session-agent", text: session.agent }),
      h("span", { class: "inbox-session-seen", text: ago(now - session.lastActivity) }),
      waiting,
      button,
    );
  }
}

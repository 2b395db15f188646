// The person's sessions as their inbox lists them: title, status, agent and last activity, each
// with a button that opens its whole conversation.
import type { InboxSession, SessionStatus } from "../../../../src/protocol/index";
import { h, setAttr, setText } from "../dom";

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

/** One session's row and the parts of it an update rewrites. */
interface Row {
  el: HTMLElement;
  title: HTMLElement;
  status: HTMLElement;
  agent: HTMLElement;
  seen: HTMLElement;
  waiting: HTMLElement;
  button: HTMLButtonElement;
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
  private readonly rows = new Map<string, Row>();

  constructor(private readonly open: (sessionId: string, button: HTMLButtonElement) => void) {}

  /**
   * Shows `sessions` in their order. Each session keeps its row: every event of every session
   * updates the list, and a person may have hundreds, so only the words that changed are written and
   * only rows out of place move; an Open button the person is on keeps the focus.
   */
  update(sessions: readonly InboxSession[], now: number): void {
    this.empty.hidden = sessions.length > 0;
    const listed = new Set(sessions.map((session) => session.sessionId));
    for (const [sessionId, row] of this.rows) {
      if (listed.has(sessionId)) continue;
      row.el.remove();
      this.rows.delete(sessionId);
    }
    let place: ChildNode | null = this.list.firstChild;
    for (const session of sessions) {
      const row = this.rowOf(session.sessionId);
      fill(row, session, now);
      if (row.el === place) place = place.nextSibling;
      else this.list.insertBefore(row.el, place);
    }
  }

  private rowOf(sessionId: string): Row {
    const known = this.rows.get(sessionId);
    if (known) return known;
    const button = h("button", { type: "button", class: "inbox-open", text: "Open" });
    button.addEventListener("click", () => this.open(sessionId, button));
    const row: Row = {
      title: h("span", { class: "inbox-session-title" }),
      status: h("span", { class: "inbox-session-status" }),
      agent: h("span", { class: "inbox-session-agent" }),
      seen: h("span", { class: "inbox-session-seen" }),
      waiting: h("span", { class: "inbox-session-waiting" }),
      button,
      el: h("li", { class: "inbox-session", "data-session-id": sessionId }),
    };
    row.el.append(row.title, row.status, row.agent, row.seen, row.waiting, row.button);
    this.rows.set(sessionId, row);
    return row;
  }
}

/** Writes what `session` says into its row, leaving alone what already says it. */
function fill(row: Row, session: InboxSession, now: number): void {
  const title = sessionTitle(session);
  setAttr(row.el, "data-status", session.status);
  setText(row.title, title);
  setText(row.status, STATUS_WORDS[session.status]);
  setText(row.agent, session.agent);
  setText(row.seen, ago(now - session.lastActivity));
  if (row.waiting.hidden !== (session.openCards === 0)) row.waiting.hidden = session.openCards === 0;
  setText(row.waiting, session.openCards === 1 ? "1 card waiting" : `${session.openCards} cards waiting`);
  setAttr(row.button, "aria-label", `Open ${title}`);
}

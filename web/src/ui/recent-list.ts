// The start page's list of sessions this browser opened: title, status (refreshed from the server),
// when it was last seen, and links to reopen or forget each one.

import { fetchSnapshot } from "../../../client/session-api";
import { buildShareUrl } from "../../../client/session-link";
import { forgetSession, type RecentSession, readRecent, updateStatus } from "../recent-sessions";
import { h, setText } from "./dom";

type Store = Pick<Storage, "getItem" | "setItem">;

const STATUS_WORDS: Record<RecentSession["status"], string> = {
  idle: "Idle",
  running: "Working",
  awaiting_input: "Waiting for you",
  failed: "Failed",
  unavailable: "Link no longer works",
};

function ago(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

export function recentList(storage: Store | null): HTMLElement {
  const list = h("ul", { class: "recent-list" });
  const section = h(
    "section",
    { class: "recent", "aria-label": "Recent sessions" },
    h("h2", { text: "Recent sessions" }),
    list,
  );

  const render = () => {
    const sessions = readRecent(storage);
    section.hidden = sessions.length === 0;
    list.replaceChildren(...sessions.map((session) => row(session)));
  };

  const row = (session: RecentSession): HTMLElement => {
    const status = h("span", {
      class: "recent-status",
      "data-status": session.status,
      text: STATUS_WORDS[session.status],
    });
    const item = h(
      "li",
      { class: "recent-item", "data-session-id": session.sessionId },
      h("a", {
        class: "recent-open",
        href: buildShareUrl(location.origin, session),
        text: session.title ?? "Untitled session",
        "aria-label": `Reopen ${session.title ?? "untitled session"}`,
      }),
      status,
      h("span", { class: "recent-seen", text: ago(Date.now() - session.lastSeenAt) }),
      h("button", {
        type: "button",
        class: "recent-forget",
        text: "Forget",
        "aria-label": `Forget ${session.title ?? "untitled session"}`,
        on: {
          click: () => {
            forgetSession(storage, session.sessionId);
            render();
          },
        },
      }),
    );
    // The stored status may be old: ask the server, and say so when the link stopped working.
    fetchSnapshot(location.origin, session.sessionId, session.token)
      .then((snapshot) => ({ status: snapshot.status }) as const)
      .catch(
        (error: { status?: number }) =>
          ({ status: error.status && error.status < 500 ? "unavailable" : null }) as const,
      )
      .then(({ status: fresh }) => {
        if (!fresh || fresh === session.status) return;
        updateStatus(storage, session.sessionId, fresh);
        status.dataset.status = fresh;
        setText(status, STATUS_WORDS[fresh]);
      });
    return item;
  };

  render();
  return section;
}

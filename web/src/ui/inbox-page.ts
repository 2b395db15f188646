// The start page is the person's inbox: every card waiting in any of their sessions, answered in
// place, the count in the tab title, their sessions from the server, and "start a new session".
import {
  extendFromInbox,
  fetchInbox,
  type InboxTarget,
  openFromInbox,
  respondFromInbox,
} from "../../../client/inbox-api";
import { InboxClient } from "../../../client/inbox-client";
import { waitingCount } from "../../../client/inbox-state";
import { ApiError } from "../../../client/session-api";
import type { CommandOutcome } from "../../../client/session-client";
import type { InboxEvent, InboxView, InteractionResolution } from "../../../src/protocol/index";
import { homeScreenHint, showWaiting } from "../app-shell";
import { safeLocalStorage } from "../safe-storage";
import { chatLinksSection } from "./account/chat-links";
import { ConnectAgentPanel } from "./account/connect-agent";
import { InboxGrants } from "./account/inbox-grants";
import { InboxHistory } from "./account/inbox-history";
import { InboxMachines } from "./account/inbox-machines";
import { inboxNotifyControl } from "./account/inbox-notify";
import type { CardContext } from "./cards/interaction-card";
import { h, setText } from "./dom";
import { InboxCards } from "./inbox/inbox-cards";
import { forgetInboxLink, type InboxRoute, linkRoleOf } from "./inbox/inbox-route";
import { InboxSessions } from "./inbox/inbox-sessions";
import { startSessionForm, storedGatewayToken, storeGatewayToken } from "./inbox/landing";
import { HOW_TO_SIGN_IN } from "./inbox/sign-in";
import { answeringSections } from "./people/answering-section";
import { PeopleSection } from "./people/people-section";

/** What the inbox says when it starts with no network, instead of the browser's error page. */
const OFFLINE_WORDS = "You are offline. Your cards load here as soon as the network is back.";

/** The device id receipts of answers given on an inbox page carry (the server records it). */
const INBOX_DEVICE = "inbox";

/** `(3) Parley` while three cards wait, `Parley` when none does. */
export function inboxTitle(waiting: number): string {
  return waiting > 0 ? `(${waiting}) Parley` : "Parley";
}

function openSession(sessionId: string, token: string): void {
  location.hash = `#/s/${sessionId}?token=${encodeURIComponent(token)}`;
}

/** Asks for the gateway token when the deployment needs it to show the operator's inbox. */
function gatewayPrompt(reason: string): HTMLElement {
  const input = h("input", { type: "password", autocomplete: "off", id: "inbox-gateway", required: true });
  return h(
    "form",
    {
      class: "inbox-gateway",
      on: {
        submit: (event) => {
          event.preventDefault();
          storeGatewayToken(input.value.trim());
          location.reload();
        },
      },
    },
    h("p", { text: reason }),
    h("label", { for: "inbox-gateway", text: "Gateway token" }),
    input,
    h("button", { type: "submit", class: "primary", text: "Open my inbox" }),
  );
}

export function mountInbox(root: HTMLElement, route: InboxRoute): void {
  const target: InboxTarget = {
    baseUrl: location.origin,
    credential: route.linkToken ?? storedGatewayToken(),
  };
  const alert = h("p", { class: "inbox-alert", role: "alert" });
  const status = h("p", { class: "inbox-connection", role: "status", text: "Connecting…" });
  const respond = async (card: { sessionId: string; interactionId: string }, response: unknown) => {
    try {
      const answered = await respondFromInbox(target, card, response);
      return { result: answered.result, alreadyResolved: false } satisfies CommandOutcome;
    } catch (error) {
      // Someone answered first: show their answer in place, as the session page does.
      if (error instanceof ApiError && error.status === 409 && error.resolution) {
        cards.resolve(card.sessionId, error.resolution as InteractionResolution);
        return { result: null, alreadyResolved: true, resolution: error.resolution };
      }
      throw error;
    }
  };
  // The new deadline shows at once; the inbox stream brings the same to every other device.
  const extendDeadline = async (card: { sessionId: string; interactionId: string }) => {
    const extended = await extendFromInbox(target, card);
    cards.extend(card.sessionId, card.interactionId, extended.result.expiresAt);
    return { result: extended.result, alreadyResolved: false } satisfies CommandOutcome;
  };
  const contextFor = (sessionId: string): CardContext => ({
    deviceId: INBOX_DEVICE,
    clockSkewMs: 0,
    actions: {
      respond: (interactionId, response) => respond({ sessionId, interactionId }, response),
      extendDeadline: (interactionId) => extendDeadline({ sessionId, interactionId }),
    },
  });
  const cards = new InboxCards(contextFor);
  const open = async (sessionId: string, button: HTMLButtonElement) => {
    button.disabled = true;
    try {
      const opened = await openFromInbox(target, sessionId);
      openSession(opened.sessionId, opened.token);
    } catch (error) {
      setText(alert, `Could not open the session: ${error instanceof Error ? error.message : String(error)}`);
      button.disabled = false;
    }
  };
  const sessions = new InboxSessions(open);
  // Grants and the decision record are the person's own: an inbox link sees neither.
  const grants = route.linkToken ? null : new InboxGrants(target);
  const history = route.linkToken ? null : new InboxHistory(target, open);
  // Machines are the person's own: an inbox link never starts anything.
  const machines = route.linkToken ? null : new InboxMachines(target);
  const startSection = h(
    "section",
    { class: "inbox-start", "aria-labelledby": "inbox-start-heading" },
    h("h2", { id: "inbox-start-heading", text: "Start a new session" }),
    h("p", {
      text: "Run an agent that stops to ask you — questions and tool approvals — and carries on when you answer, from any device.",
    }),
    startSessionForm(openSession),
  );
  // The stylesheet hides the answering controls of a view link (the server refuses them anyway).
  const role = route.linkToken ? linkRoleOf(route.linkToken) : "owner";
  root.dataset.role = role;
  const subtitle =
    role === "view"
      ? "Inbox (read-only link: cards can be read, not answered)"
      : route.linkToken
        ? "Inbox (opened with an inbox link)"
        : "Inbox";
  const header = h(
    "header",
    { class: "inbox-header" },
    h("h1", { text: "Parley" }),
    h("p", { class: "inbox-subtitle", text: subtitle }),
    inboxNotifyControl(target),
    status,
    homeScreenHint(),
  );
  const chatLinks = route.linkToken ? null : chatLinksSection(target);
  // Whom the person invited to answer their cards is theirs alone; whose cards this browser answers is its own.
  const people = route.linkToken ? null : new PeopleSection(target.credential);
  const answering = answeringSections();
  const main = h(
    "main",
    { class: "inbox" },
    alert,
    ...answering,
    // What waits for an answer first, then the sessions; the person's records and settings after.
    cards.el,
    sessions.el,
    route.linkToken ? null : startSection,
    grants?.el ?? null,
    history?.el ?? null,
    machines?.el ?? null,
    // Only the person mints agent keys; an inbox link may not (the server refuses it too).
    route.linkToken ? null : new ConnectAgentPanel(target).el,
    // Linking a chat account is the person's alone, never an inbox link's.
    chatLinks?.el ?? null,
    people?.el ?? null,
  );
  root.replaceChildren(header, main);
  document.title = inboxTitle(0);

  const show = (view: InboxView) => {
    // The person's own stream lists their chat accounts, and a new one the moment it links.
    if (view.chatLinks) chatLinks?.show(view.chatLinks);
    cards.update(view);
    sessions.update(view.sessions, Date.now());
    document.title = inboxTitle(waitingCount(view));
    showWaiting(waitingCount(view));
  };
  const onEvent = (event: InboxEvent) => {
    if (event.change.type !== "card_resolved") return;
    // A new decision: the record grows, and a grant that decided it counts one more use.
    if (event.change.decision) {
      void history?.refresh();
      if (event.change.decision.decidedBy.kind === "grant") void grants?.refresh();
    }
    const card = cards.cardOf(event.sessionId, event.change.interactionId);
    if (!card) return;
    const { outcome, resolvedBy, answeredBy, resolvedAt, interactionId } = event.change;
    cards.resolve(event.sessionId, {
      toolCallId: card.toolCallId,
      interactionId,
      kind: card.kind,
      outcome,
      response: null,
      resolvedBy,
      answeredBy: answeredBy ?? null,
      resolvedAt,
    });
  };

  // Started offline (the service worker's kept shell): say so, and load once the network is back.
  const load = () =>
    fetchInbox(target).then(
      (view) => {
        setText(alert, "");
        show(view);
        void grants?.refresh();
        void history?.refresh();
        void machines?.refresh();
        void people?.refresh();
        const client = new InboxClient(target);
        client.on("view", show);
        client.on("event", onEvent);
        client.on("connected", (connected) => setText(status, connected ? "Live" : "Reconnecting…"));
        client.on("ended", (reason) => {
          setText(status, "Disconnected");
          setText(alert, reason);
          if (route.linkToken) forgetInboxLink(safeLocalStorage());
        });
        window.addEventListener("online", () => client.reconnectNow());
        document.addEventListener("visibilitychange", () => {
          if (document.visibilityState !== "visible") return;
          client.reconnectNow();
          void machines?.refresh();
          // Someone may have accepted an invite while the page was away.
          void people?.refresh();
        });
        client.connect();
      },
      (error: unknown) => {
        if (!(error instanceof ApiError) && navigator.onLine === false) {
          setText(status, "Offline");
          setText(alert, OFFLINE_WORDS);
          window.addEventListener("online", () => void load(), { once: true });
          return;
        }
        setText(status, "Not connected");
        if (error instanceof ApiError && error.status === 401 && !route.linkToken) {
          cards.el.hidden = true;
          sessions.el.hidden = true;
          // An approver's browser is no person here: it shows the cards it answers, not a sign-in.
          if (answering.length > 0) {
            main.replaceChildren(alert, ...answering);
            setText(status, "");
            return;
          }
          main.prepend(gatewayPrompt(HOW_TO_SIGN_IN));
          return;
        }
        if (route.linkToken && error instanceof ApiError && error.status < 500) {
          forgetInboxLink(safeLocalStorage());
        }
        setText(alert, `Could not open the inbox: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  void load();
}

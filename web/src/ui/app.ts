// The session page: wires the socket client to the pure view reducer and the components, batches
// renders, routes keyboard shortcuts to the active card and keeps the newest output in view.
import type { PermissionMode } from "../../../src/protocol/index";
import { pendingInteractions } from "../interaction-view";
import { type CommandOutcome, type ConnectionInfo, SessionClient } from "../session-client";
import type { SessionRoute } from "../session-link";
import { buildShareUrl } from "../session-link";
import {
  initialView,
  type Resolution,
  reduceView,
  type SessionView,
  type ViewAction,
} from "../session-state";
import { Composer } from "./composer";
import { ConnectionBadge } from "./connection-badge";
import { h } from "./dom";
import type { CardContext } from "./interaction-card";
import { shareLink } from "./share-link";
import { StatusBar } from "./status-bar";
import { Transcript } from "./transcript";

/** A 409's winning resolution, whichever field names the outcome. */
function asResolution(value: unknown): Resolution | null {
  if (!value || typeof value !== "object") return null;
  const r = value as Record<string, unknown>;
  const outcome = typeof r.outcome === "string" ? r.outcome : r.status;
  if (typeof outcome !== "string" || outcome === "pending") return null;
  return {
    outcome: outcome as Resolution["outcome"],
    response: r.response ?? null,
    resolvedBy: typeof r.resolvedBy === "string" ? r.resolvedBy : null,
    resolvedAt: typeof r.resolvedAt === "number" ? r.resolvedAt : Date.now(),
  };
}

export function mountSession(root: HTMLElement, route: SessionRoute, deviceId: string): SessionClient {
  let view: SessionView = initialView();
  let connection: ConnectionInfo = { state: "connecting", attempt: 0, retryAt: null };
  const client = new SessionClient({
    baseUrl: location.origin,
    ...route,
    deviceId,
    isOnline: () => navigator.onLine !== false,
  });

  const dispatch = (action: ViewAction) => {
    view = reduceView(view, action);
    schedule();
  };
  const interaction = async (toolCallId: string, send: Promise<CommandOutcome>) => {
    const outcome = await send;
    // A late answer lost the race: show the winner, which is what every other device shows.
    const resolution = outcome.alreadyResolved ? asResolution(outcome.resolution) : null;
    if (resolution) dispatch({ type: "resolution", toolCallId, resolution });
    return outcome;
  };
  const context: CardContext = {
    deviceId,
    clockSkewMs: 0,
    actions: {
      submitAnswers: (id, answers) =>
        interaction(id, client.send({ type: "submit_answers", toolCallId: id, answers })),
      approve: (id, remember) => interaction(id, client.send({ type: "approve", toolCallId: id, remember })),
      deny: (id, reason) => interaction(id, client.send({ type: "deny", toolCallId: id, reason })),
    },
  };
  let currentContext = context;

  const send = async (text: string) => {
    await client.send({ type: "send_message", text });
  };
  const badge = new ConnectionBadge(() => client.reconnectNow());
  const status = new StatusBar({
    retry: () => view.lastUserText && void send(view.lastUserText).catch(() => undefined),
    setMode: (mode: PermissionMode) =>
      void client.send({ type: "set_permission_mode", mode }).catch(() => undefined),
  });
  const transcript = new Transcript();
  const composer = new Composer({
    send,
    cancel: async () => {
      await client.send({ type: "cancel" }).catch(() => undefined);
    },
  });

  const emptyHint = h("p", {
    class: "empty-hint",
    hidden: true,
    text: "Nothing here yet. Send a message to start; the agent stops and asks you whenever it needs a decision.",
  });
  root.replaceChildren(
    h(
      "header",
      { class: "top" },
      h("h1", {}, h("a", { href: "/", text: "Parley" })),
      badge.el,
      shareLink(buildShareUrl(location.origin, route)),
    ),
    status.demo,
    h("main", { class: "conversation" }, emptyHint, transcript.el, transcript.queuedEl),
    h("footer", { class: "bottom" }, status.el, composer.el),
  );

  const focused = new Set<string>();
  let openCards = new Set<string>();
  let focusWasOnCard = false;
  let focusLost = false;
  document.addEventListener("focusin", (event) => {
    focusWasOnCard = event.target instanceof Node && transcript.el.contains(event.target);
  });
  let scheduled = false;
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // rAF pauses in hidden tabs; the timeout keeps state current there too.
    const run = () => {
      if (!scheduled) return;
      scheduled = false;
      render();
    };
    requestAnimationFrame(run);
    setTimeout(run, 100);
  }

  function render(): void {
    const scroller = document.scrollingElement ?? document.documentElement;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
    if (currentContext.clockSkewMs !== view.clockSkewMs || currentContext.deviceId !== view.deviceId) {
      currentContext = { ...context, clockSkewMs: view.clockSkewMs, deviceId: view.deviceId ?? deviceId };
    }
    transcript.render(view, currentContext);
    emptyHint.hidden = !view.connectedOnce || view.order.length > 0 || view.queued.length > 0;
    status.update(view);
    composer.update(view, connection);
    document.title = view.status === "awaiting_input" ? "● Waiting for you — Parley" : "Parley";
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
    focusNewCard();
    noteAnsweredCards();
    restoreLostFocus();
  }

  /** An answered card drops the control that had focus; note it so focus can move on. */
  function noteAnsweredCards(): void {
    const open = new Set(pendingInteractions(view).map((item) => item.id));
    if (focusWasOnCard && [...openCards].some((id) => !open.has(id))) focusLost = true;
    openCards = open;
  }

  /** Moves focus the answered card dropped to the next open card, or to the message box. */
  function restoreLostFocus(): void {
    if (!focusLost) return;
    const active = document.activeElement;
    if (active && active !== document.body) {
      focusLost = false;
      return;
    }
    const next = pendingInteractions(view)[0];
    if (next) transcript.card(next.id)?.focus();
    else composer.focus();
    // The box may stay locked until the session says it is running; a later render tries again.
    if (document.activeElement && document.activeElement !== document.body) focusLost = false;
  }

  /** A new prompt takes focus unless the person is typing somewhere else. */
  function focusNewCard(): void {
    const first = pendingInteractions(view)[0];
    if (!first || focused.has(first.id)) return;
    focused.add(first.id);
    const active = document.activeElement;
    if (active && active !== document.body && active !== composer.input) return;
    transcript.card(first.id)?.focus();
  }

  document.addEventListener("keydown", (event) => {
    if (
      event.defaultPrevented ||
      (event.target !== document.body && event.target !== document.documentElement)
    )
      return;
    const first = pendingInteractions(view)[0];
    if (first && transcript.card(first.id)?.handleKey(event)) event.preventDefault();
  });

  client.on("hello", (frame) => dispatch({ type: "hello", frame, receivedAt: Date.now() }));
  client.on("events", (events) => dispatch({ type: "events", events }));
  client.on("connection", (info) => {
    connection = info;
    badge.update(info);
    schedule();
  });
  window.addEventListener("online", () => client.reconnectNow());
  window.addEventListener("offline", () => badge.update(connection));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") client.reconnectNow();
  });
  client.connect();
  schedule();
  return client;
}

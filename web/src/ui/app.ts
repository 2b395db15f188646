// The session page: wires the socket client to the pure view reducer and the components, batches
// renders, routes keyboard shortcuts to the active card and keeps the newest output in view.

import { type CommandOutcome, type ConnectionInfo, SessionClient } from "../../../client/session-client";
import type { SessionRoute } from "../../../client/session-link";
import type { InteractionResolution, PermissionMode } from "../../../src/protocol/index";
import { type PendingPrompt, pendingInteractions } from "../interaction-view";
import { initialView, reduceView, type SessionView, type ViewAction } from "../session-state";
import type { CardContext } from "./cards/interaction-card";
import { h } from "./dom";
import { AgentBreadcrumb } from "./session/agent-breadcrumb";
import { BatchBar } from "./session/batch-bar";
import { Composer } from "./session/composer";
import { ConnectionBadge } from "./session/connection-badge";
import { notifyControl } from "./session/notify-control";
import { SharePanel } from "./session/share-link";
import { StatusBar } from "./session/status-bar";
import { Transcript } from "./transcript/transcript";

/** A 409's winning resolution, when the error carried one with the fields a receipt needs. */
function asResolution(value: unknown): InteractionResolution | null {
  if (!value || typeof value !== "object") return null;
  const r = value as Partial<InteractionResolution>;
  if (typeof r.toolCallId !== "string" || typeof r.outcome !== "string") return null;
  return {
    toolCallId: r.toolCallId,
    ...(typeof r.interactionId === "string" ? { interactionId: r.interactionId } : {}),
    kind: typeof r.kind === "string" ? r.kind : "",
    outcome: r.outcome,
    response: r.response ?? null,
    resolvedBy: typeof r.resolvedBy === "string" ? r.resolvedBy : null,
    ...(typeof r.answeredBy === "string" ? { answeredBy: r.answeredBy } : {}),
    resolvedAt: typeof r.resolvedAt === "number" ? r.resolvedAt : Date.now(),
  };
}

/** The card a pending prompt is drawn in. */
function cardOf(transcript: Transcript, prompt: PendingPrompt | undefined) {
  return prompt ? transcript.card(prompt.item.id, prompt.interaction.id) : null;
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
  const respond = async (interactionId: string, response: unknown): Promise<CommandOutcome> => {
    const outcome = await client.send({ type: "respond", interactionId, response });
    // A late answer lost the race: show the winner, which is what every other device shows.
    const resolution = outcome.alreadyResolved ? asResolution(outcome.resolution) : null;
    if (resolution) dispatch({ type: "resolution", resolution });
    return outcome;
  };
  const context: CardContext = {
    deviceId,
    clockSkewMs: 0,
    actions: {
      respond,
      extendDeadline: (interactionId) => client.send({ type: "extend_deadline", interactionId }),
    },
    focusMessageBox: () => composer.focus(),
  };
  let currentContext = context;

  const send = async (text: string) => {
    await client.send({ type: "send_message", text });
  };
  const badge = new ConnectionBadge(() => client.reconnectNow());
  const status = new StatusBar({
    retry: () => view.lastUserText && void send(view.lastUserText).catch(() => undefined),
    retryNow: () => void client.send({ type: "retry_now" }).catch(() => undefined),
    setMode: (mode: PermissionMode) =>
      void client.send({ type: "set_permission_mode", mode }).catch(() => undefined),
  });
  const transcript = new Transcript();
  // Cards another device decided first arrive as their own events; nothing to patch here.
  const batchBar = new BatchBar((batch) => client.send({ type: "decide_batch", ...batch }));
  const composer = new Composer({
    send,
    cancel: async () => {
      await client.send({ type: "cancel" }).catch(() => undefined);
    },
    endAgent: async (frameId) => {
      await client.send({ type: "end_agent", frameId }).catch(() => undefined);
    },
  });
  const breadcrumb = new AgentBreadcrumb();

  const share = new SharePanel(route);
  const ended = h("p", { class: "session-ended", role: "alert", hidden: true });
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
      notifyControl(route, deviceId),
      share.el,
    ),
    // Every notice sits inside a landmark, so screen-reader users moving by region meet it.
    h(
      "main",
      { class: "conversation" },
      ended,
      status.demo,
      status.agent,
      emptyHint,
      transcript.el,
      transcript.queuedEl,
    ),
    h("footer", { class: "bottom" }, batchBar.el, status.el, breadcrumb.el, composer.el),
  );

  const focused = new Set<string>();
  let openCards = new Set<string>();
  let focusWasOnCard = false;
  let focusLost = false;
  let typingInBox = false;
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
    // Read before the message box may lock for a card: a person typing there keeps their focus.
    typingInBox = document.activeElement === composer.input && composer.input.value !== "";
    const scroller = document.scrollingElement ?? document.documentElement;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
    if (currentContext.clockSkewMs !== view.clockSkewMs || currentContext.deviceId !== view.deviceId) {
      currentContext = { ...context, clockSkewMs: view.clockSkewMs, deviceId: view.deviceId ?? deviceId };
    }
    transcript.render(view, currentContext);
    emptyHint.hidden = !view.connectedOnce || view.order.length > 0 || view.queued.length > 0;
    status.update(view);
    breadcrumb.update(view);
    batchBar.update(view);
    composer.update(view, connection);
    document.title = view.status === "awaiting_input" ? "● Waiting for you — Parley" : "Parley";
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
    focusNewCard();
    focusLinkedCard();
    noteAnsweredCards();
    restoreLostFocus();
  }

  /** An answered card drops the control that had focus; note it so focus can move on. */
  function noteAnsweredCards(): void {
    const open = new Set(pendingInteractions(view).map((prompt) => prompt.interaction.id));
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
    const next = cardOf(transcript, pendingInteractions(view)[0]);
    if (next) next.focus();
    else composer.focus();
    // The box may stay locked until the session says it is running; a later render tries again.
    if (document.activeElement && document.activeElement !== document.body) focusLost = false;
  }

  /** A notification's link names its card (`&card=`): bring that card into view once it is shown. */
  let linkedCard = new URLSearchParams(location.hash.split("?")[1] ?? "").get("card");
  function focusLinkedCard(): void {
    const linked = pendingInteractions(view).find(
      (prompt) => prompt.interaction.id === linkedCard || prompt.item.id === linkedCard,
    );
    const card = cardOf(transcript, linked);
    if (!card) return;
    linkedCard = null;
    card.focus();
    (document.activeElement as HTMLElement | null)?.scrollIntoView({ block: "center" });
  }

  /** A new prompt takes focus unless the person is typing somewhere else. */
  function focusNewCard(): void {
    const first = pendingInteractions(view)[0];
    if (!first || focused.has(first.interaction.id)) return;
    focused.add(first.interaction.id);
    const active = document.activeElement;
    // Never from a field the person is typing in: an empty message box is the only one it leaves.
    if (typingInBox) return;
    const idleBox = active === composer.input && composer.input.value === "";
    if (active && active !== document.body && !idleBox) return;
    cardOf(transcript, first)?.focus();
  }

  document.addEventListener("keydown", (event) => {
    if (
      event.defaultPrevented ||
      (event.target !== document.body && event.target !== document.documentElement)
    )
      return;
    if (cardOf(transcript, pendingInteractions(view)[0])?.handleKey(event)) event.preventDefault();
  });

  client.on("hello", (frame) => {
    share.setRole(frame.role ?? "owner");
    // The stylesheet hides what this role may not do (the server refuses it anyway).
    root.dataset.role = frame.role ?? "owner";
    // An agent that runs elsewhere gets the person's messages through its bridge, as Parley's own does.
    composer.setViewOnly(frame.role === "view" || frame.role === "agent");
    dispatch({ type: "hello", frame, receivedAt: Date.now() });
  });
  client.on("ended", (reason) => {
    ended.textContent = reason;
    ended.hidden = false;
    share.setRole("none");
  });
  client.on("events", (events) => dispatch({ type: "events", events }));
  client.on("delta", (frame) => dispatch({ type: "delta", frame }));
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

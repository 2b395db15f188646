// Connection state as it really is: connected, connecting, reconnecting (with the next try), offline.
import type { ConnectionInfo } from "../../../../client/session-client";
import { h, setText } from "../dom";

export class ConnectionBadge {
  readonly el: HTMLElement;
  private readonly label = h("span", { class: "badge-label" });
  private readonly retry: HTMLButtonElement;
  private info: ConnectionInfo = { state: "connecting", attempt: 0, retryAt: null };
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(reconnectNow: () => void) {
    this.retry = h("button", {
      type: "button",
      class: "link",
      text: "Retry now",
      hidden: true,
      on: { click: reconnectNow },
    });
    this.el = h(
      "div",
      { class: "connection", role: "status", "aria-live": "polite" },
      h("span", { class: "dot", "aria-hidden": "true" }),
      this.label,
      this.retry,
    );
    this.render();
  }

  update(info: ConnectionInfo): void {
    this.info = info;
    clearInterval(this.timer);
    this.timer = info.retryAt ? setInterval(() => this.render(), 1000) : undefined;
    this.render();
  }

  private render(): void {
    const { state, retryAt } = this.info;
    const offline = state === "offline" || (typeof navigator !== "undefined" && navigator.onLine === false);
    const shown = offline && state !== "connected" ? "offline" : state;
    this.el.dataset.state = shown;
    const wait = retryAt ? Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)) : 0;
    const text = {
      connecting: "Connecting…",
      connected: "Connected",
      reconnecting: wait > 0 ? `Reconnecting in ${wait}s…` : "Reconnecting…",
      offline: "Offline — will reconnect",
      closed: "Disconnected",
    }[shown];
    setText(this.label, text);
    this.retry.hidden = !(shown === "reconnecting" || shown === "offline") || wait === 0;
  }
}

// The "Notify this device" control in the session header: a toggle when the server can push, or a
// short note saying why it cannot.

import type { SessionRoute } from "../../../../client/session-link";
import {
  currentPushState,
  disablePush,
  enablePush,
  notifyInfo,
  type PushState,
} from "../../push-subscription";
import { h, setText } from "../dom";

const BLOCKED = "Notifications are blocked for this site in the browser's settings.";

export function notifyControl(route: SessionRoute, deviceId: string): HTMLElement {
  const button = h("button", {
    type: "button",
    class: "notify-toggle",
    hidden: true,
    text: "Notify this device",
  });
  const note = h("span", { class: "notify-note", role: "status" });
  const el = h("div", { class: "notify", "data-state": "loading" }, button, note);
  let state: PushState = { kind: "off" };

  const show = (next: PushState) => {
    state = next;
    el.dataset.state = next.kind;
    button.hidden = next.kind === "unavailable" || next.kind === "blocked";
    button.setAttribute("aria-pressed", String(next.kind === "on"));
    setText(button, next.kind === "on" ? "Notifications on" : "Notify this device");
    setText(
      note,
      next.kind === "unavailable"
        ? `Notifications off: ${next.reason}`
        : next.kind === "blocked"
          ? BLOCKED
          : "",
    );
  };

  void notifyInfo()
    .then(async (info) => {
      show(await currentPushState(route, info));
      button.addEventListener("click", async () => {
        button.disabled = true;
        setText(note, "");
        try {
          show(
            state.kind === "on"
              ? await disablePush(route, deviceId)
              : await enablePush(route, deviceId, info),
          );
        } catch (error) {
          setText(
            note,
            `Could not change notifications: ${error instanceof Error ? error.message : String(error)}`,
          );
        } finally {
          button.disabled = false;
        }
      });
    })
    .catch(() => show({ kind: "unavailable", reason: "the server did not say whether it can push." }));
  return el;
}

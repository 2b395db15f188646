// "Notify this device" on an approver's answering page: this device, subscribed as the approver in
// the inviter's inbox, is told a card still waits when a rung of its ladder reaches approvers and
// the card is within their scope; tapping the notification opens this page. It carries no Approve
// or Deny: the approver answers here. Whether this device is on is what the server lists as theirs.
import { call } from "../../../../client/session-api";
import type { PushSubscriptionBody } from "../../../../src/protocol/index";
import type { KeptApprover } from "../../approver-credentials";
import { deviceId } from "../../device-id";
import { browserSubscription, notifyInfo, pushUnavailable } from "../../push-subscription";
import { safeLocalStorage } from "../../safe-storage";
import { h, setText } from "../dom";

type Devices = { deviceIds: string[] };

/** The approver's own devices for this inviter, after the change `method` makes (with their credential). */
function devices(
  kept: KeptApprover,
  method: string,
  rest = "",
  body?: PushSubscriptionBody,
): Promise<Devices> {
  const headers: Record<string, string> = body ? { "content-type": "application/json" } : {};
  if (kept.credential) headers.authorization = `Bearer ${kept.credential}`;
  const path = `/api/people/answering/${encodeURIComponent(kept.inviter)}/push-subscriptions${rest}`;
  return call<Devices>(new URL(path, location.origin).toString(), {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
}

export function approverNotifyControl(kept: KeptApprover): HTMLElement {
  const button = h("button", { type: "button", class: "notify-toggle", hidden: true });
  const note = h("span", { class: "notify-note", role: "status" });
  const el = h("div", { class: "notify", "data-state": "loading" }, button, note);
  const device = deviceId(safeLocalStorage());
  const show = ({ deviceIds }: Devices) => {
    const on = deviceIds.includes(device);
    el.dataset.state = on ? "on" : "off";
    button.hidden = false;
    button.setAttribute("aria-pressed", String(on));
    setText(button, on ? "Notifications on" : "Notify this device");
  };
  void notifyInfo()
    .then(async (info) => {
      const reason = pushUnavailable(info);
      if (reason) {
        el.dataset.state = "unavailable";
        setText(note, `Notifications off: ${reason}`);
        return;
      }
      show(await devices(kept, "GET"));
      button.addEventListener("click", async () => {
        button.disabled = true;
        setText(note, "");
        try {
          if (el.dataset.state === "on") {
            show(await devices(kept, "DELETE", `/${encodeURIComponent(device)}`));
            return;
          }
          const subscription = await browserSubscription(info);
          if (!subscription) {
            setText(note, "Notifications are blocked for this site in the browser's settings.");
            return;
          }
          show(await devices(kept, "POST", "", { deviceId: device, subscription }));
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
    .catch(() => setText(note, "Notifications off: the server did not say whether it can push."));
  return el;
}

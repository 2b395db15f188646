// "Notify this device" on the inbox: one subscription for every session of the person, so each
// card that opens in any of them is pushed once (the inbox sends it, not each session).
import { type InboxTarget, subscribeInboxPush, unsubscribeInboxPush } from "../../../client/inbox-api";
import type { PushSubscriptionBody } from "../../../src/protocol/index";
import { deviceId } from "../device-id";
import { browserSubscription, notifyInfo, pushUnavailable } from "../push-subscription";
import { safeLocalStorage } from "../safe-storage";
import { h, setText } from "./dom";

const SUBSCRIBED = "parley.push.inbox";

export function inboxNotifyControl(target: InboxTarget): HTMLElement {
  const button = h("button", { type: "button", class: "notify-toggle", hidden: true });
  const note = h("span", { class: "notify-note", role: "status" });
  const el = h("div", { class: "notify", "data-state": "loading" }, button, note);
  const device = deviceId(safeLocalStorage());
  const storage = safeLocalStorage();
  const show = (on: boolean) => {
    el.dataset.state = on ? "on" : "off";
    button.hidden = false;
    button.setAttribute("aria-pressed", String(on));
    setText(button, on ? "Notifications on" : "Notify this device");
  };
  void notifyInfo()
    .then((info) => {
      const reason = pushUnavailable(info);
      if (reason) {
        el.dataset.state = "unavailable";
        setText(note, `Notifications off: ${reason}`);
        return;
      }
      show(storage?.getItem(SUBSCRIBED) === "1");
      button.addEventListener("click", async () => {
        button.disabled = true;
        setText(note, "");
        try {
          if (storage?.getItem(SUBSCRIBED) === "1") {
            await unsubscribeInboxPush(target, device);
            storage?.removeItem(SUBSCRIBED);
            show(false);
          } else {
            const subscription = await browserSubscription(info);
            if (!subscription) {
              setText(note, "Notifications are blocked for this site in the browser's settings.");
              return;
            }
            const body: PushSubscriptionBody = { deviceId: device, subscription };
            await subscribeInboxPush(target, body);
            storage?.setItem(SUBSCRIBED, "1");
            show(true);
          }
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

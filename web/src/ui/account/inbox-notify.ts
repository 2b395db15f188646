// "Notify this device" on the inbox: one subscription for every session of the person, so each
// card that opens in any of them is pushed once (the inbox sends it, not each session). A checkbox
// keeps Approve and Deny on approvals' notifications, or turns them off for this device.
import { type InboxTarget, subscribeInboxPush, unsubscribeInboxPush } from "../../../../client/inbox-api";
import type { PushSubscriptionBody } from "../../../../src/protocol/index";
import { deviceId } from "../../device-id";
import { browserSubscription, notifyInfo, pushUnavailable } from "../../push-subscription";
import { safeLocalStorage } from "../../safe-storage";
import { h, setText } from "../dom";

const SUBSCRIBED = "parley.push.inbox";
const ACTIONS_OFF = "parley.push.inbox.actions-off";

export function inboxNotifyControl(target: InboxTarget): HTMLElement {
  const button = h("button", { type: "button", class: "notify-toggle", hidden: true });
  const note = h("span", { class: "notify-note", role: "status" });
  const storage = safeLocalStorage();
  const actions = h("input", { type: "checkbox", class: "notify-actions-box" });
  actions.checked = storage?.getItem(ACTIONS_OFF) !== "1";
  const actionsLabel = h(
    "label",
    { class: "notify-actions", hidden: true },
    actions,
    " Approve and Deny on the notification",
  );
  const el = h("div", { class: "notify", "data-state": "loading" }, button, actionsLabel, note);
  const device = deviceId(safeLocalStorage());
  const show = (on: boolean) => {
    el.dataset.state = on ? "on" : "off";
    actionsLabel.hidden = !on;
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
      // The setting is kept with the subscription: a change subscribes this device again with it.
      actions.addEventListener("change", async () => {
        actions.disabled = true;
        setText(note, "");
        try {
          const subscription = await browserSubscription(info);
          if (!subscription) return;
          await subscribeInboxPush(target, { deviceId: device, subscription, actions: actions.checked });
          if (actions.checked) storage?.removeItem(ACTIONS_OFF);
          else storage?.setItem(ACTIONS_OFF, "1");
        } catch (error) {
          actions.checked = !actions.checked;
          setText(note, `Could not change it: ${error instanceof Error ? error.message : String(error)}`);
        } finally {
          actions.disabled = false;
        }
      });
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
            const body: PushSubscriptionBody = { deviceId: device, subscription, actions: actions.checked };
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

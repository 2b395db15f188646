// Push and webhook deliveries (and their retries) that are due. Late in the alarm's order, since
// they wait on other services: a slow push service must never hold up a card's timeout.
import type { SqlDeliveryStore } from "../../notify/delivery-store";
import type { Notifier } from "../../notify/notifier";
import type { DeadlineSource } from "./deadline-source";

export function deliverySource(deliveries: SqlDeliveryStore, notifier: () => Notifier): DeadlineSource {
  return {
    name: "notification deliveries",
    next: () => deliveries.earliestDue(),
    async fire(now) {
      await notifier().deliverDue(now);
      return undefined;
    },
  };
}

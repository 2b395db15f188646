// Push and webhook deliveries (and their retries) that are due. Late in the alarm's order, since
// they wait on other services: a slow push service must never hold up a card's timeout.
import type { SqlDeliveryStore } from "../../notify/delivery-store";
import type { Notifier } from "../../notify/notifier";
import { type DeadlineSource, isDue } from "../../objects/deadline-source";

export function deliverySource(deliveries: SqlDeliveryStore, notifier: () => Notifier): DeadlineSource {
  return {
    name: "notification deliveries",
    next: () => deliveries.earliestDue(),
    fire(now) {
      // Nothing due: no lease query, and the alarm need not wait on a send.
      if (!isDue(deliveries.earliestDue(), now)) return undefined;
      return notifier()
        .deliverDue(now)
        .then(() => undefined);
    },
  };
}

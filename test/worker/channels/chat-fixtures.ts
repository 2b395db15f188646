// What every platform's channel tests share: a card waiting in a person's inbox, and the one
// channel object behind every platform's webhooks.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { DeliveryView } from "../../../src/protocol";
import { textReply, toolReply } from "../../helpers/session-harness";
import { deliverOutbox, inboxDeliveries, type Person } from "../inbox/inbox-fixtures";

/** Opens an approval of `notes_write` in a new session of `person`, reported to their inbox. */
export async function openApproval(person: Person, id: string) {
  const session = await person.createSession({
    script: [
      toolReply([{ id, name: "notes_write", input: { key: "plan", text: "ship it" } }]),
      textReply("Saved."),
    ],
  });
  const device = await person.connect(session);
  await device.request({ type: "send_message", text: "write the plan down" });
  await device.until(() => {
    const last = device.events.at(-1);
    return last?.type === "session_status" && last.data.status === "awaiting_input";
  }, "awaiting_input");
  device.close();
  await deliverOutbox(session);
  return session;
}

/** The channel object (every platform's webhooks go to it). */
export function channelObject() {
  return env.CHANNELS.get(env.CHANNELS.idFromName("channels"));
}

/** `person`'s chat delivery on `channel`, as their delivery log shows it. */
export async function chatDelivery(person: Person, channel: string): Promise<DeliveryView | undefined> {
  return (await inboxDeliveries(person)).find((row) => row.channel === channel);
}

/**
 * Waits until `person`'s chat delivery on `channel` has a failed first attempt settled for a retry.
 * A row whose first attempt is still in flight is also pending at one attempt (until its lease ends),
 * so the attempt's recorded error is what tells the two apart.
 */
export async function firstAttemptFailed(person: Person, channel: string): Promise<DeliveryView | undefined> {
  await expect
    .poll(() => chatDelivery(person, channel))
    .toMatchObject({ status: "pending", attempts: 1, lastError: expect.any(String) });
  return chatDelivery(person, channel);
}

// A form card both chat platforms' form tests open: Parley's own loop asks the courier's form (two
// fields a modal can hold) and waits for it.
import { textReply, toolReply } from "../../helpers/session-harness";
import { deliverOutbox, type Person } from "../inbox/inbox-fixtures";

export const COURIER = {
  message: "How should the courier reach you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Your name" },
      floor: { type: "integer", title: "Floor", minimum: 0, maximum: 40 },
    },
    required: ["name"],
  },
};

/** Opens `form` as card `id` in a new session of `person` and sends it to the inbox; the connected device. */
export async function openForm(person: Person, id: string, form: Record<string, unknown>) {
  const session = await person.createSession({
    script: [toolReply([{ name: "RequestUserInput", id, input: form }]), textReply("Booked.")],
  });
  const device = await person.connect(session);
  await device.request({ type: "send_message", text: "Book the courier" });
  await device.waitForEvent("interaction_prompt");
  await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
  await deliverOutbox(session);
  return device;
}

// The Message button and its modal: where the button goes on a card full of buttons, the modal's
// label for a long or hostile title, and the card message a submitted modal names.
import { describe, expect, it } from "vitest";
import type { DiscordButton, DiscordMessage } from "../../../../src/channels/discord/discord-message";
import {
  messageModal,
  messageOfModal,
  withMessageButton,
} from "../../../../src/channels/discord/discord-message-modal";

function card(buttonsPerRow: number[]): DiscordMessage {
  let n = 0;
  const button = (): DiscordButton => ({ type: 2, style: 2, label: `b${n}`, custom_id: `1.b${n++}` });
  return {
    content: "card",
    components: buttonsPerRow.map((count) => ({
      type: 1,
      components: Array.from({ length: count }, button),
    })),
    allowed_mentions: { parse: [] },
  };
}

const labelsOf = (message: DiscordMessage) =>
  message.components.map((row) => row.components.map((b) => b.label));

describe("the Discord Message button and modal", () => {
  it("puts Message last in the last row with room, else in a row of its own, and leaves a card of five full rows as it is", () => {
    expect(labelsOf(withMessageButton(card([3])))).toEqual([["b0", "b1", "b2", "Message"]]);
    expect(labelsOf(withMessageButton(card([5])))).toEqual([["b0", "b1", "b2", "b3", "b4"], ["Message"]]);
    expect(labelsOf(withMessageButton(card([])))).toEqual([["Message"]]);
    const full = card([5, 5, 5, 5, 5]);
    expect(withMessageButton(full)).toEqual(full);
    // The card it was given is not changed: the same card renders again for every update.
    const given = card([2]);
    withMessageButton(given);
    expect(labelsOf(given)).toEqual([["b0", "b1"]]);
  });

  it("labels the input with the session's title spelled inert and cut to Discord's 45 characters", () => {
    const modal = messageModal("1300000000000000001", `Fix \u202eyadot ${"x".repeat(60)}`);
    const label = modal.components[0]?.label ?? "";
    expect(label).toHaveLength(45);
    expect(label.startsWith("Message to Fix \\u202eyadot x")).toBe(true);
    expect(label.endsWith("…")).toBe(true);
    expect(modal.custom_id).toBe("message.1300000000000000001");
  });

  it("reads back only a Message modal naming a message id", () => {
    expect(messageOfModal("message.1300000000000000001")).toBe("1300000000000000001");
    for (const other of [
      undefined,
      "message",
      "message.",
      "message.12a",
      "message.1.2",
      "12.a",
      "x.message.1",
    ])
      expect(messageOfModal(other)).toBeNull();
  });
});

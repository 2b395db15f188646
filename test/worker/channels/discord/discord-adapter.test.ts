// The inbox's Discord sender against the REST API stand-in: what a card's message holds (the card's
// words in code blocks they cannot close, no mentions), and that an update shows the card anew with
// its buttons while an edit to the receipt takes them away, all but Message.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { discordSender } from "../../../../src/channels/discord/discord-adapter";
import { configFor } from "../../../../src/config";
import type { InboxCard } from "../../../../src/protocol/inbox/inbox";
import { buttonsOf, callsTo, RECEIPT_COMPONENTS } from "./discord-fixtures";

const CHANNEL = "760000000000000001";

function card(input: unknown): InboxCard {
  return {
    sessionId: "s".repeat(32),
    interactionId: "toolu_dc_sender",
    toolCallId: "toolu_dc_sender",
    kind: "approval",
    toolName: "Bash",
    request: { toolName: "Bash", input },
    createdAt: 1,
    expiresAt: Date.now() + 60_000,
  } as InboxCard;
}

describe("the Discord sender", () => {
  it("posts the agent's text in a code block it cannot close, pinging nobody, and later shows it anew or as its receipt", async () => {
    const config = configFor(env).channels.discord;
    if (!config) throw new Error("the channel tests' runtime configures Discord");
    const sender = discordSender(config);
    const message = {
      card: card({ command: "echo ``` @everyone <@123>" }),
      ref: 41,
      openUrl: "https://parley.test/#/inbox?card=toolu_dc_sender",
    };
    const messageId = await sender.post(CHANNEL, message);
    const [posted] = await callsTo(CHANNEL, "post");
    const content = String(posted?.body.content);
    expect(content).toContain("@everyone");
    // Two code blocks (the line and the input), each opened and closed by Parley: the agent's ```
    // is three backticks kept apart, and no longer closes one.
    expect(content.match(/```/g)).toHaveLength(4);
    expect(content).toContain('```\n{\n "command": "echo `\u200b`\u200b` @everyone <@123>"\n}\n```');
    expect(posted?.body.allowed_mentions).toEqual({ parse: [] });
    expect(buttonsOf(posted!)).toMatchObject({ Approve: "41.a", Deny: "41.d" });

    await sender.update(CHANNEL, messageId, message);
    await sender.edit(CHANNEL, messageId, "Approved by Ana · Discord");
    const [update, edit] = await callsTo(CHANNEL, "edit");
    expect(update?.path).toBe(`/channels/${CHANNEL}/messages/${messageId}`);
    expect(buttonsOf(update!)).toMatchObject({ Approve: "41.a" });
    expect(edit?.body).toMatchObject({
      content: "Approved by Ana · Discord",
      components: RECEIPT_COMPONENTS,
    });
  });
});

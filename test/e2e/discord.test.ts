// Discord from the inbox page on a phone: Link Discord shows `/parley link <code>`, the command comes
// signed from the account's direct message, the account is listed; a card then arrives in the DM, a
// signed press approves it, the page shows who approved it from where, and the message is edited to
// the receipt, which keeps only Message.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { DiscordCall } from "../helpers/discord-api";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import { baseUrl, launchBrowser, postMessage, say, screenshot, scriptedSession } from "./harness";

const USER = { id: "990000000000000001", username: "ana", global_name: "Ana" };
const DM = "990000000000000002";
let interactions = 0;

/** Posts `interaction` to the endpoint signed with the application's key, as Discord does. */
async function sendInteraction(interaction: Record<string, unknown>) {
  interactions += 1;
  const body = JSON.stringify({
    id: `e2e-${interactions}`,
    token: `e2e-token-${interactions}`,
    channel: { id: DM, type: 1 },
    channel_id: DM,
    context: 1,
    user: USER,
    ...interaction,
  });
  const key = await crypto.subtle.importKey(
    "jwk",
    JSON.parse(inject("discordSigningKey")),
    "Ed25519",
    false,
    ["sign"],
  );
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = await crypto.subtle.sign("Ed25519", key, new TextEncoder().encode(timestamp + body));
  const response = await fetch(`${baseUrl()}/api/channels/discord`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-signature-ed25519": Buffer.from(signature).toString("hex"),
      "x-signature-timestamp": timestamp,
    },
    body,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { type: number; data?: { content?: string } };
}

async function callsTo(method: string): Promise<DiscordCall[]> {
  const calls = (await (await fetch(`${inject("discordApiUrl")}/control/calls`)).json()) as DiscordCall[];
  return calls.filter((call) => call.method === method && call.channelId === DM);
}

describe.skipIf(!hasChromium)("Discord from the inbox page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("links an account on a phone, and a signed press in Discord approves a card the page then shows as approved from Discord", async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phone = await context.newPage();
    phone.on("pageerror", (error) => console.error("[phone] page error:", error));
    await phone.goto(`${baseUrl()}/#/inbox`);
    await phone.getByRole("button", { name: "Link Discord" }).click();
    const command = (await phone.locator(".chat-link-command").textContent()) ?? "";
    expect(command).toMatch(/^\/parley link [A-Z2-9]{8}$/);
    await expectNoViolations(phone, "inbox with a Discord link code");

    const linked = await sendInteraction({
      type: 2,
      data: {
        id: "1",
        name: "parley",
        type: 1,
        options: [
          { name: "link", type: 1, options: [{ name: "code", type: 3, value: command.split(" ").pop() }] },
        ],
      },
    });
    expect(linked.data?.content).toContain("Linked to Parley");
    await phone.locator(".chat-link", { hasText: `Discord: Ana (id ${USER.id})` }).waitFor();
    await screenshot(phone, "inbox-discord-linked");

    const session = await scriptedSession([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_e2e_dc",
            name: "notes_write",
            input: { key: "k", text: "from discord" },
          },
        ],
      },
      say("Saved."),
    ]);
    await postMessage(session, "Write it down");
    await phone.locator(`.inbox-group[data-session-id="${session.sessionId}"] .approval-card`).waitFor();
    // This test's card: the page's person (`local`) is shared with the other chat tests.
    const cardsSent = async () =>
      (await callsTo("POST")).filter((call) => String(call.body.content).includes("from discord"));
    await expect.poll(async () => (await cardsSent()).length).toBe(1);
    const [sent] = await cardsSent();
    expect(sent?.body.content).toContain("from discord");
    const rows = sent?.body.components as { components: { label: string; custom_id?: string }[] }[];
    const buttons = rows.flatMap((row) => row.components);
    const approve = buttons.find((button) => button.label === "Approve");
    // Message writes to the card's session (test/worker/channels/discord/discord-replies.test.ts).
    expect(buttons.find((button) => button.label === "Message")?.custom_id).toBe("message");
    expect(
      await sendInteraction({ type: 3, data: { custom_id: approve?.custom_id, component_type: 2 } }),
    ).toEqual({
      type: 6,
    });

    const receipt = phone.locator(
      `.inbox-group[data-session-id="${session.sessionId}"] .receipt[data-outcome=approved]`,
    );
    await receipt.waitFor();
    expect(await receipt.textContent()).toMatch(/^Approved by Ana · Discord/);
    await expect
      .poll(async () => (await callsTo("PATCH")).map((call) => call.body))
      .toContainEqual(
        expect.objectContaining({
          content: "Approved by Ana · Discord",
          // The answers are gone; Message stays, to write to the card's session.
          components: [
            { type: 1, components: [{ type: 2, style: 2, label: "Message", custom_id: "message" }] },
          ],
        }),
      );
    await context.close();
  });
});

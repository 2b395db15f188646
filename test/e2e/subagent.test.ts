import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, say, screenshot, scriptedSession, typeMessage } from "./harness";

const delegate = {
  content: [
    { type: "text" as const, text: "I'll ask the researcher." },
    {
      type: "tool_use" as const,
      id: "toolu_delegate",
      name: "Agent",
      input: { description: "Research async APIs", prompt: "Find async APIs.", subagent_type: "researcher" },
    },
  ],
};
const complete = {
  content: [{ type: "tool_use" as const, name: "complete", input: { result: "Python 3.13 has TaskGroup." } }],
};

describe.skipIf(!hasChromium)("a conversation with a subagent across two devices", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("the phone talks to the subagent, the laptop watches it complete, and the main agent resumes on both", async () => {
    const session = await scriptedSession([
      delegate,
      say("Which Python version matters to you?"),
      complete,
      say("The researcher found that Python 3.13 has TaskGroup."),
    ]);
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await openDevice(browser, session, "phone");

    await typeMessage(laptop, "Research async APIs");
    for (const page of [laptop, phone]) {
      await page.getByText("Which Python version matters to you?").waitFor();
      await expect.poll(() => page.locator(".agent-stack").textContent()).toBe("Talking toMainresearcher");
      expect(await page.locator(".message.assistant.from-subagent .message-who").last().textContent()).toBe(
        "researcher",
      );
      await page.getByRole("button", { name: "End researcher" }).waitFor();
    }
    await screenshot(phone, "subagent-talking");

    const box = phone.getByRole("textbox", { name: "Message to researcher" });
    await box.fill("3.13");
    await box.press("Enter");

    for (const page of [laptop, phone]) {
      await page.getByText("The researcher found that Python 3.13 has TaskGroup.").waitFor();
      await page
        .getByText("researcher completed and handed its result back: Python 3.13 has TaskGroup.")
        .waitFor();
      await expect.poll(() => page.locator(".agent-stack").isHidden()).toBe(true);
      expect(await page.getByRole("button", { name: /^End / }).isHidden()).toBe(true);
    }
    expect(await laptop.locator(".message.user[data-agent=researcher] .message-who").textContent()).toBe(
      "You → researcher",
    );
    await screenshot(laptop, "subagent-completed");

    // A reload replays the same labels from the event log.
    await laptop.reload();
    await laptop.getByText("The researcher found that Python 3.13 has TaskGroup.").waitFor();
    expect(await laptop.locator(".message.from-subagent").count()).toBe(2);
    expect(await laptop.locator(".agent-stack").isHidden()).toBe(true);
  });

  it("'End this agent' hands the conversation back to the main agent", async () => {
    const session = await scriptedSession([
      delegate,
      say("Which Python version matters to you?"),
      say("Understood — you stopped the researcher, so I'll answer myself."),
    ]);
    const laptop = await openDevice(browser, session, "laptop");
    await typeMessage(laptop, "Research async APIs");
    await laptop.getByRole("button", { name: "End researcher" }).click();
    await laptop.getByText("Understood — you stopped the researcher, so I'll answer myself.").waitFor();
    await laptop.getByText(/^researcher was ended by you/).waitFor();
    await expect.poll(() => laptop.locator(".agent-stack").isHidden()).toBe(true);
  });

  it("the researcher talks while the main agent's approval stays open, and approving it after the hand-back resumes main", async () => {
    const session = await scriptedSession([
      {
        content: [
          { type: "text", text: "I'll save a note and ask the researcher." },
          { type: "tool_use", id: "toolu_note", name: "notes_write", input: { key: "plan", text: "async" } },
          { ...delegate.content[1], id: "toolu_delegate" },
        ],
      } as typeof delegate,
      say("Which Python version matters to you?"),
      complete,
      say("Saved the note, and the researcher found TaskGroup."),
    ]);
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await openDevice(browser, session, "phone");
    await typeMessage(laptop, "Research async APIs");

    for (const page of [laptop, phone]) {
      // The researcher did not wait for the approval: it speaks while the main agent's card is open.
      await page.getByText("Which Python version matters to you?").waitFor();
      const card = page.locator(".tool-card[data-tool-call-id=toolu_note]");
      await card.getByRole("button", { name: "Approve", exact: true }).waitFor();
      expect(await card.locator(".tool-head").textContent()).not.toContain("by researcher");
    }
    // The message goes to the researcher, the agent on top, not to the open card.
    const box = phone.getByRole("textbox", { name: "Message to researcher" });
    await box.fill("3.13");
    await box.press("Enter");
    for (const page of [laptop, phone]) {
      await page
        .getByText("researcher completed and handed its result back: Python 3.13 has TaskGroup.")
        .waitFor();
      await expect.poll(() => page.locator(".agent-stack").isHidden()).toBe(true);
    }
    expect(await laptop.getByText("Saved the note, and the researcher found TaskGroup.").count()).toBe(0);

    await laptop
      .locator(".tool-card[data-tool-call-id=toolu_note]")
      .getByRole("button", { name: "Approve", exact: true })
      .click();
    for (const page of [laptop, phone]) {
      await page.getByText("Saved the note, and the researcher found TaskGroup.").waitFor();
    }
    await screenshot(phone, "subagent-beside-approval");
  });
});

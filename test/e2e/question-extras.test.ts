// AskUserQuestion as the SDK has it today, in the page: option previews shown on focus, a note on
// an answer, a lone single choice that submits on click, and a reply in chat that answers the card.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  launchBrowser,
  openDevice,
  type Reply,
  say,
  screenshot,
  scriptedSession,
  typeMessage,
} from "./harness";

const QUESTION = "Which layout should the page use?";

const askWithPreviews: Reply = {
  content: [
    {
      type: "tool_use",
      id: "toolu_layout",
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question: QUESTION,
            header: "Layout",
            multiSelect: false,
            options: [
              {
                label: "Sidebar",
                description: "Menu on the left",
                preview: "## Sidebar\n\n```\n| menu | content |\n```",
              },
              {
                label: "Top bar",
                description: "Menu on top",
                preview: "## Top bar\n\n- menu\n- content below",
              },
            ],
          },
          {
            question: "Dark mode too?",
            header: "Theme",
            multiSelect: false,
            options: [
              { label: "Yes", description: "Both themes" },
              { label: "No", description: "Light only" },
            ],
          },
        ],
      },
    },
  ],
};

async function storedResolution(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(async () => {
    // The page keeps its token in this tab's sessionStorage, out of the address bar.
    const [, id] = /#\/s\/([0-9a-f]+)/.exec(location.hash) ?? [];
    const token = sessionStorage.getItem(`parley:token:${id}`) ?? "";
    const response = await fetch(`/api/sessions/${id}/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { events } = (await response.json()) as {
      events: Array<{ type: string; data: Record<string, unknown> }>;
    };
    return events.find((event) => event.type === "interaction_resolved")?.data ?? {};
  });
}

describe.skipIf(!hasChromium)("AskUserQuestion extras in the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [device, width] of [
    ["laptop", 900],
    ["phone", 390],
  ] as const) {
    it(`shows the focused option's preview and sends a note with the answers (${device})`, async () => {
      const session = await scriptedSession([askWithPreviews, say("Layout chosen.")]);
      const page = await openDevice(browser, session, device);
      await page.setViewportSize({ width, height: 900 });
      await typeMessage(page, "Design the page");
      const card = page.locator(".question-card");
      const preview = card.locator(".option-preview");
      await preview.locator("h2").waitFor();
      expect(await preview.locator("h2").textContent()).toBe("Sidebar");
      await card.getByLabel("Top bar").focus();
      await expect.poll(() => preview.locator("h2").textContent()).toBe("Top bar");
      expect(await preview.locator("li").count()).toBe(2);
      await card.getByLabel("Top bar").check();
      await card.getByText("Add a note").first().click();
      await card.getByLabel(`Note on: ${QUESTION}`).fill("keep it sticky");
      await card.locator('input[value="No"]').check();
      await screenshot(page, `question-preview-${device}`);
      await card.getByRole("button", { name: "Submit answers" }).click();
      await page.getByText("Layout chosen.").waitFor();
      expect(await storedResolution(page)).toMatchObject({
        response: {
          answers: { [QUESTION]: "Top bar", "Dark mode too?": "No" },
          annotations: {
            [QUESTION]: { notes: "keep it sticky", preview: "## Top bar\n\n- menu\n- content below" },
          },
        },
      });
    });
  }

  it("submits a lone single-choice question on click, and on a digit key", async () => {
    const ask = (id: string): Reply => ({
      content: [
        {
          type: "tool_use",
          id,
          name: "AskUserQuestion",
          input: {
            questions: [
              {
                question: "Ship it?",
                header: "Ship",
                multiSelect: false,
                options: [
                  { label: "Ship", description: "Today" },
                  { label: "Wait", description: "Next week" },
                ],
              },
            ],
          },
        },
      ],
    });
    const session = await scriptedSession([
      ask("toolu_click"),
      say("Clicked."),
      ask("toolu_key"),
      say("Keyed."),
    ]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Ask me");
    await page.locator(".question-card").getByLabel("Wait").click();
    await page.getByText("Clicked.").waitFor();
    expect(await page.locator(".question-card .answer-summary dd").textContent()).toBe("Wait");

    await typeMessage(page, "Ask again");
    const second = page.locator(".tool-card[data-tool-call-id=toolu_key] .question-card");
    // Digits answer a card from its first second on (data-keys-ready).
    await second.and(page.locator(":focus[data-keys-ready]")).waitFor();
    await page.keyboard.press("1");
    await page.getByText("Keyed.").waitFor();
    expect(await second.locator(".answer-summary dd").textContent()).toBe("Ship");
  });

  it("a reply typed in the message box answers the open card in chat (Esc moves there)", async () => {
    const session = await scriptedSession([askWithPreviews, say("Going with your words.")]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Design the page");
    await page.locator(".question-card:focus").waitFor();
    await page.keyboard.press("Escape");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Message to the agent");
    await page.keyboard.type("Something minimal, no menu at all");
    await page.keyboard.press("Enter");
    await page.getByText("Going with your words.").waitFor();
    expect(await page.locator(".question-card .receipt").textContent()).toBe("Answered in chat");
    expect(await page.locator(".queued-message").count()).toBe(0);
    expect(await page.locator(".message.user .message-text").allTextContents()).toEqual([
      "Design the page",
      "Something minimal, no menu at all",
    ]);
  });
});

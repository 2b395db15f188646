// The form card in Chromium on a laptop and a phone: every input type, checks shown under each
// field (the page's own and the server's refusal), Accept / Decline by mouse and keyboard, and the
// receipt with the submitted values on the other device; a tool's own form inside its tool card.
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

const FORM_ID = "toolu_booking";
const booking = {
  message: "Book the team offsite",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Organiser", minLength: 2, default: "Ada" },
      email: { type: "string", title: "Email", format: "email", description: "For the confirmation." },
      site: { type: "string", title: "Venue website", format: "uri" },
      day: { type: "string", title: "Day", format: "date" },
      arrive: { type: "string", title: "Arrival", format: "date-time" },
      people: { type: "integer", title: "People", minimum: 1, maximum: 40, default: 8 },
      budget: { type: "number", title: "Budget per head", minimum: 0 },
      vegan: { type: "boolean", title: "Vegan catering", default: true },
      room: {
        type: "string",
        title: "Room",
        oneOf: [
          { const: "hall", title: "Main hall" },
          { const: "loft", title: "Loft" },
        ],
      },
      city: { type: "string", title: "City", enum: ["Berlin", "Lisbon", "Oslo", "Paris", "Rome", "Vienna"] },
      extras: {
        type: "array",
        title: "Extras",
        items: { type: "string", enum: ["Projector", "Parking", "Coffee"] },
      },
    },
    required: ["name", "email", "day", "people"],
  },
};
const formReply = (id = FORM_ID): Reply => ({
  content: [{ type: "tool_use", id, name: "RequestUserInput", input: booking }],
});

async function openPhone(browser: Browser, shareUrl: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[phone] page error:", error));
  await page.goto(shareUrl);
  await page.locator(".connection[data-state=connected]").waitFor();
  return page;
}

describe.skipIf(!hasChromium)("the form card", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders every field type on two devices, checks fields inline, and shows the receipt on both", async () => {
    const session = await scriptedSession([formReply(), say("Offsite booked.")]);
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await openPhone(browser, session.shareUrl);
    await typeMessage(laptop, "Book the offsite");

    for (const page of [laptop, phone]) {
      const card = page.locator(".form-card");
      await card.waitFor();
      await card.getByText("Book the team offsite").waitFor();
      expect(await card.locator("input[type=email]").count()).toBe(1);
      expect(await card.locator("input[type=url]").count()).toBe(1);
      expect(await card.locator("input[type=date]").count()).toBe(1);
      expect(await card.locator("input[type=datetime-local]").count()).toBe(1);
      expect(await card.locator("input[type=number]").count()).toBe(2);
      expect(await card.locator("input[type=radio]").count()).toBe(2);
      expect(await card.locator("select option").allTextContents()).toEqual([
        "Choose…",
        "Berlin",
        "Lisbon",
        "Oslo",
        "Paris",
        "Rome",
        "Vienna",
      ]);
      expect(await card.locator("input[type=checkbox]").count()).toBe(4);
      expect(await card.getByLabel("Organiser").inputValue()).toBe("Ada");
      expect(await card.getByLabel("People").getAttribute("max")).toBe("40");
      expect(await card.getByLabel("Vegan catering").isChecked()).toBe(true);
      await card.getByText("For the confirmation.").waitFor();
    }
    await screenshot(laptop, "form");

    // The page's own check: nothing is sent, and each field says what is wrong.
    const card = phone.locator(".form-card");
    await card.getByLabel("Organiser").fill("A");
    await card.getByLabel("Email").fill("ada@");
    await card.getByRole("button", { name: "Accept" }).click();
    await card.locator("[data-field=name] .field-error").getByText("must be at least 2 characters").waitFor();
    await card.locator("[data-field=email] .field-error").getByText("must be an email address").waitFor();
    expect(await card.locator("[data-field=day] .field-error").textContent()).toBe("is required");
    expect(await card.getByLabel("Organiser").evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await laptop.locator(".form-card form").count()).toBe(1);

    await card.getByLabel("Organiser").fill("Ada Lovelace");
    expect(await card.locator("[data-field=name] .field-error").isHidden()).toBe(true);
    await card.getByLabel("Email").fill("ada@example.com");
    await card.getByLabel("Venue website").fill("https://venue.example");
    await card.getByLabel("Day").fill("2026-12-01");
    await card.getByLabel("Arrival").fill("2026-12-01T09:30");
    await card.getByLabel("People").fill("12");
    await card.getByLabel("Budget per head").fill("42.5");
    await card.getByLabel("Vegan catering").uncheck();
    await card.getByLabel("Loft").check();
    await card.getByLabel("City").selectOption("Lisbon");
    await card.getByLabel("Projector").check();
    await card.getByLabel("Coffee").check();
    await card.getByRole("button", { name: "Accept" }).click();

    await phone.locator(".form-card .receipt[data-outcome=answered]").waitFor();
    await laptop.locator(".form-card .receipt[data-outcome=answered]").waitFor();
    expect(await phone.locator(".form-card .receipt").textContent()).toBe("Accepted");
    expect(await laptop.locator(".form-card .receipt").textContent()).toBe("Accepted on another device");
    expect(await laptop.locator(".form-card .answer-summary dt").allTextContents()).toContain("Room");
    const summary = await laptop.locator(".form-card .answer-summary dd").allTextContents();
    expect(summary).toEqual([
      "Ada Lovelace",
      "ada@example.com",
      "https://venue.example",
      "2026-12-01",
      "2026-12-01T09:30",
      "12",
      "42.5",
      "No",
      "Loft",
      "Lisbon",
      "Projector, Coffee",
    ]);
    for (const page of [laptop, phone]) await page.getByText("Offsite booked.").waitFor();
    await screenshot(laptop, "form-accepted");
  });

  it("shows the server's refusal under the field, then declines from the keyboard", async () => {
    const session = await scriptedSession([formReply("toolu_refused"), say("No offsite then.")]);
    const laptop = await openDevice(browser, session, "laptop");
    // An answer the page's own check would have stopped, as a page older than the server might send.
    let tampered = false;
    await laptop.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const text = String(message);
        if (!tampered && text.includes('"respond"')) {
          tampered = true;
          const command = JSON.parse(text);
          command.response.content.people = 400;
          server.send(JSON.stringify(command));
        } else server.send(message);
      });
      server.onMessage((message) => ws.send(message));
    });
    await laptop.reload();
    await laptop.locator(".connection[data-state=connected]").waitFor();
    await typeMessage(laptop, "Book it");
    const card = laptop.locator(".form-card");
    await card.waitFor();
    await card.getByLabel("Email").fill("ada@example.com");
    await card.getByLabel("Day").fill("2026-12-01");
    await card.getByRole("button", { name: "Accept" }).click();
    await card.locator("[data-field=people] .field-error").getByText("must be at most 40").waitFor();
    expect(await card.locator(".action-line").textContent()).toContain(
      "Could not send: people: must be at most 40",
    );
    expect(await card.getByLabel("People").getAttribute("aria-invalid")).toBe("true");
    expect(await card.getByRole("button", { name: "Accept" }).isEnabled()).toBe(true);

    await card.getByLabel("Email").focus();
    await laptop.keyboard.press("Escape");
    await card.locator(".receipt[data-outcome=denied]").waitFor();
    expect(await card.locator(".receipt").textContent()).toBe("Declined");
    await laptop.getByText("No offsite then.").waitFor();
  });

  it("puts a form a tool opens inside that tool's card, which keeps its arguments and result", async () => {
    const session = await scriptedSession(
      [
        {
          content: [
            { type: "tool_use", id: "toolu_cal", name: "calendar_add_event", input: { title: "Dentist" } },
          ],
        },
        say("It's in the calendar."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    const laptop = await openDevice(browser, session, "laptop");
    await typeMessage(laptop, "Dentist on Dec 1st at 9:30");
    const tool = laptop.locator(".tool-card[data-tool-call-id=toolu_cal]");
    const card = tool.locator(".form-card");
    await card.waitFor();
    expect(await tool.locator(".tool-phase").textContent()).toBe("waiting for you");
    expect(await card.getByLabel("Title").inputValue()).toBe("Dentist");
    expect(await card.getByLabel("Length (minutes)").inputValue()).toBe("30");
    await card.getByLabel("Starts at").fill("2026-12-01T09:30");
    await card.and(laptop.locator("[data-keys-ready]")).waitFor();
    await card.getByLabel("Starts at").press("Enter");
    await card.locator(".receipt[data-outcome=answered]").waitFor();
    await tool
      .locator(".tool-result")
      .getByText("Added “Dentist” at 2026-12-01T09:30 for 30 minutes.")
      .waitFor({
        state: "attached",
      });
    await expect.poll(() => tool.getAttribute("data-phase")).toBe("done");
    await laptop.getByText("It's in the calendar.").waitFor();
  });
});

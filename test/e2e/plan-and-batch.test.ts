// The plan card in plan mode and "Approve all" / "Deny all", across a laptop and a phone.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  baseUrl,
  launchBrowser,
  openDevice,
  type Reply,
  say,
  screenshot,
  scriptedSession,
  typeMessage,
} from "./harness";

const PLAN = [
  "## Plan",
  "",
  "1. Write the note **demo**",
  "2. Report back",
  "",
  "| Step | Risk |",
  "|---|---|",
  "| write | edit |",
].join("\n");

const writes = (...keys: string[]): Reply => ({
  content: keys.map((key) => ({
    type: "tool_use" as const,
    id: `toolu_${key}`,
    name: "notes_write",
    input: { key, text: `note ${key}` },
  })),
});

async function phoneOf(browser: Browser, session: Parameters<typeof openDevice>[1]): Promise<Page> {
  const phone = await openDevice(browser, session, "phone");
  await phone.setViewportSize({ width: 390, height: 800 });
  return phone;
}

describe.skipIf(!hasChromium)("plan approval and batch decisions in the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the plan as markdown and approving it with edits accepted switches the mode on every device", async () => {
    const session = await scriptedSession(
      [
        { content: [{ type: "tool_use", id: "toolu_plan", name: "ExitPlanMode", input: { plan: PLAN } }] },
        writes("demo"),
        say("Note written without asking."),
      ],
      { permissionMode: "plan" },
    );
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await phoneOf(browser, session);
    expect(await laptop.getByLabel("Permission mode").inputValue()).toBe("plan");
    await typeMessage(laptop, "Plan a note");
    const card = phone.locator(".plan-card");
    await card.locator(".markdown table").waitFor();
    expect(await card.locator(".markdown h2").textContent()).toBe("Plan");
    expect(await card.locator(".markdown ol > li").count()).toBe(2);
    await screenshot(phone, "plan-card-phone");
    await screenshot(laptop, "plan-card");

    await phone.getByRole("button", { name: /Approve · accept edits/ }).click();
    await laptop.getByText("Note written without asking.").waitFor();
    for (const page of [laptop, phone]) {
      await expect.poll(() => page.getByLabel("Permission mode").inputValue()).toBe("acceptEdits");
    }
    expect(await laptop.locator(".plan-card .receipt").textContent()).toBe(
      "Plan approved · edits run without asking on another device",
    );
    expect(await laptop.locator(".approval-card").count()).toBe(0);
  });

  it("keeps planning from the keyboard with feedback, and the mode stays plan", async () => {
    const session = await scriptedSession(
      [
        { content: [{ type: "tool_use", id: "toolu_plan2", name: "ExitPlanMode", input: { plan: PLAN } }] },
        say("Revising."),
      ],
      { permissionMode: "plan" },
    );
    const page = await openDevice(browser, session);
    await typeMessage(page, "Plan a note");
    await page.locator(".plan-card:focus[data-keys-ready]").waitFor();
    await page.keyboard.press("Escape");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Feedback for the agent's plan (optional)");
    await page.keyboard.type("Add a test step");
    await page.keyboard.press("Enter");
    await page.getByText("Revising.").waitFor();
    expect(await page.locator(".plan-card .receipt").textContent()).toBe("Keep planning: “Add a test step”");
    expect(await page.getByLabel("Permission mode").inputValue()).toBe("plan");
  });

  it("offers an answer link neither accept edits nor Always allow, which only the owner may choose", async () => {
    const session = await scriptedSession(
      [
        { content: [{ type: "tool_use", id: "toolu_plan3", name: "ExitPlanMode", input: { plan: PLAN } }] },
        writes("helper"),
        say("Written after asking."),
      ],
      { permissionMode: "plan" },
    );
    const minted = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/links`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: JSON.stringify({ role: "answer", label: "helper" }),
    });
    const link = (await minted.json()) as { token: string; shareUrl: string };
    const laptop = await openDevice(browser, session, "laptop");
    const helper = await openDevice(browser, { ...session, ...link }, "helper");
    await typeMessage(laptop, "Plan a note");

    const plan = helper.locator(".plan-card");
    await plan.locator(".markdown h2").waitFor();
    expect(await plan.getByRole("button", { name: /accept edits/ }).count()).toBe(0);
    expect(
      await laptop
        .locator(".plan-card")
        .getByRole("button", { name: /accept edits/ })
        .count(),
    ).toBe(1);
    // The key of the hidden choice does nothing either: the plan is approved by "2" alone.
    await helper.locator(".plan-card:focus[data-keys-ready]").waitFor();
    await helper.keyboard.press("1");
    await helper.keyboard.press("2");
    await expect
      .poll(() => laptop.locator(".plan-card .receipt").textContent())
      .toMatch(/^Plan approved · each action is reviewed/);

    const approval = helper.locator(".approval-card");
    await approval.getByRole("button", { name: "Approve", exact: true }).waitFor();
    await approval.locator("summary", { hasText: "More…" }).click();
    expect(await approval.getByRole("button", { name: /Always allow/ }).count()).toBe(0);
    await laptop.locator(".approval-card").locator("summary", { hasText: "More…" }).click();
    expect(
      await laptop
        .locator(".approval-card")
        .getByRole("button", { name: /Always allow/ })
        .count(),
    ).toBe(1);
    await approval.getByRole("button", { name: "Approve", exact: true }).click();
    await laptop.getByText("Written after asking.").waitFor();
  });

  it("approves all open cards from the phone; the laptop shows the batch on each receipt", async () => {
    const session = await scriptedSession([writes("a", "b", "c"), say("All three saved.")]);
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await phoneOf(browser, session);
    await typeMessage(laptop, "Save three notes");
    const bar = phone.locator(".batch-bar");
    await expect
      .poll(() => bar.locator(".batch-count").textContent())
      .toBe("3 actions wait for your approval:");
    await screenshot(phone, "batch-bar-phone");
    await bar.getByRole("button", { name: "Approve all" }).click();
    await laptop.getByText("All three saved.").waitFor();
    expect(await laptop.locator(".approval-card .receipt").allTextContents()).toEqual([
      "Approved (all 3 at once) on another device",
      "Approved (all 3 at once) on another device",
      "Approved (all 3 at once) on another device",
    ]);
    expect(await bar.locator(".action-line").textContent()).toBe("Approved 3 cards.");
    await expect.poll(() => laptop.locator(".batch-bar").isHidden()).toBe(true);
  });

  it("denies all with one reason and stops the turn", async () => {
    const session = await scriptedSession([writes("x", "y"), say("This reply is never requested.")]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Save two notes");
    const bar = page.locator(".batch-bar");
    await bar.getByRole("button", { name: "Deny all" }).waitFor();
    await bar.getByLabel("Reason for denying all (optional)").fill("not today");
    await bar.getByLabel("Also stop the turn").check();
    await bar.getByRole("button", { name: "Deny all" }).click();
    await page.getByText("Turn stopped after a denial.").waitFor();
    expect(await page.locator(".approval-card .receipt").allTextContents()).toEqual([
      "Denied: “not today” · turn stopped (all 2 at once)",
      "Denied: “not today” · turn stopped (all 2 at once)",
    ]);
    expect(await page.getByText("This reply is never requested.").count()).toBe(0);
  });
});

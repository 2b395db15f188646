// Model text, plans and option previews render as markdown — lists, tables, code, safe links —
// while no payload in them ever becomes HTML that runs; streaming text re-renders without flicker.
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

/** Each payload would set `window.__pwned` if any of it became live HTML or a followed link. */
const XSS_PAYLOADS = [
  `<script>window.__pwned = "script"</script>`,
  `<img src=x onerror="window.__pwned = 'img'">`,
  `<svg onload="window.__pwned = 'svg'"></svg>`,
  `<iframe src="javascript:window.__pwned = 'iframe'"></iframe>`,
  `<details open ontoggle="window.__pwned = 'details'"><summary>x</summary></details>`,
  `<a href="javascript:window.__pwned = 'anchor'">raw anchor</a>`,
  `<math><mi xlink:href="javascript:window.__pwned = 'math'">m</mi></math>`,
  `<style>#app { display: none }</style>`,
  `<object data="javascript:window.__pwned = 'object'"></object>`,
  `[md link](javascript:window.__pwned='link')`,
  `[upper](JAVASCRIPT:window.__pwned='upper')`,
  `[entity](&#106;avascript:window.__pwned='entity')`,
  `[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)`,
  `[vb](vbscript:msgbox(1))`,
  `![image](javascript:window.__pwned='image')`,
  `![tracker](https://tracker.example/pixel.png)`,
  `<https://example.com" onmouseover="window.__pwned='autolink'>`,
  "`<img src=x onerror=\"window.__pwned = 'codespan'\">`",
  "```html\n<script>window.__pwned = 'fence'</script>\n```",
  `| <img src=x onerror="window.__pwned = 'table'"> | b |\n|---|---|\n| c | d |`,
];
const PAYLOAD_TEXT = XSS_PAYLOADS.join("\n\n");

const RICH = [
  "## Findings",
  "",
  "- first **bold** point",
  "- second with `code`",
  "",
  "| Tool | Risk |",
  "|---|---|",
  "| notes_write | edit |",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "See [the docs](https://example.com/docs).",
].join("\n");

/** Everything the page rendered as markdown is inert: no live elements, handlers or unsafe links. */
async function expectInert(page: Page): Promise<void> {
  const report = await page.evaluate(() => {
    const roots = [...document.querySelectorAll(".markdown")];
    const bad: string[] = [];
    for (const root of roots) {
      for (const el of root.querySelectorAll("*")) {
        if (
          ["SCRIPT", "IMG", "SVG", "IFRAME", "MATH", "STYLE", "OBJECT", "EMBED", "DETAILS"].includes(
            el.tagName.toUpperCase(),
          )
        )
          bad.push(`element ${el.tagName}`);
        for (const attr of el.getAttributeNames()) if (attr.startsWith("on")) bad.push(`attribute ${attr}`);
        if (el instanceof HTMLAnchorElement && !/^(https?:|mailto:)/.test(el.href))
          bad.push(`link ${el.href}`);
      }
    }
    return { roots: roots.length, bad, pwned: (window as { __pwned?: unknown }).__pwned ?? null };
  });
  expect(report.roots).toBeGreaterThan(0);
  expect(report.bad).toEqual([]);
  expect(report.pwned).toBeNull();
}

describe.skipIf(!hasChromium)("markdown in the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders lists, tables, code blocks and links that open safely in a new tab", async () => {
    const session = await scriptedSession([say(RICH)]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Report");
    const message = page.locator(".message.assistant .markdown").last();
    await message.locator("table").waitFor();
    expect(await message.locator("h2").textContent()).toBe("Findings");
    expect(await message.locator("ul > li").allTextContents()).toEqual([
      "first bold point",
      "second with code",
    ]);
    expect(await message.locator("li strong").textContent()).toBe("bold");
    expect(await message.locator("td").allTextContents()).toEqual(["notes_write", "edit"]);
    expect(await message.locator("pre code").textContent()).toBe("const answer = 42;");
    const link = message.getByRole("link", { name: "the docs" });
    expect(await link.getAttribute("href")).toBe("https://example.com/docs");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await link.getAttribute("target")).toBe("_blank");
    // What a person types stays exactly as typed.
    expect(await page.locator(".message.user .message-text").last().textContent()).toBe("Report");
    await screenshot(page, "markdown");
  });

  it("keeps every XSS payload inert in model text, a plan and option previews", async () => {
    const previewQuestion = {
      question: "Which payload preview?",
      header: "Preview",
      multiSelect: false,
      options: XSS_PAYLOADS.slice(0, 4).map((_, i) => ({
        label: `Option ${i + 1}`,
        description: "A preview full of payloads",
        preview: XSS_PAYLOADS.slice(i * 5, i * 5 + 5).join("\n\n"),
      })),
    };
    const script: Reply[] = [
      {
        content: [
          { type: "text", text: PAYLOAD_TEXT },
          { type: "tool_use", id: "toolu_plan", name: "ExitPlanMode", input: { plan: PAYLOAD_TEXT } },
        ],
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_ask",
            name: "AskUserQuestion",
            input: { questions: [previewQuestion] },
          },
        ],
      },
      say("done"),
    ];
    const session = await scriptedSession(script, { permissionMode: "plan" });
    const page = await openDevice(browser, session);
    await typeMessage(page, PAYLOAD_TEXT.slice(0, 2_000));
    await page.locator(".plan-card .markdown table").waitFor();
    await expectInert(page);
    // The payloads are there to read, as text.
    expect(await page.locator(".plan-card .markdown").textContent()).toContain(`window.__pwned = "script"`);
    await page.getByRole("button", { name: /Approve · review each action/ }).click();

    const card = page.locator(".question-card");
    await card.locator(".option-preview").waitFor();
    for (let i = 1; i <= 4; i++) {
      await card.getByLabel(`Option ${i}`).focus();
      await expectInert(page);
    }
    expect(await card.locator(".option-preview").textContent()).toContain("window.__pwned = 'table'");
    // Pointing at the rendered links must not run anything either.
    for (const link of await page.locator(".markdown a").all()) {
      for (const type of ["mouseover", "mouseenter", "focus"]) await link.dispatchEvent(type);
    }
    await expectInert(page);
  });

  it("re-renders streaming text in place: finished blocks keep their nodes and the scroll stays put", async () => {
    const long = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i + 1} of a long **streamed** answer.`,
    ).join("\n\n");
    const session = await scriptedSession([say(`# Streaming\n\n${long}`, { textChunkSize: 12, paceMs: 15 })]);
    const page = await openDevice(browser, session);
    await page.setViewportSize({ width: 900, height: 500 });
    await typeMessage(page, "Stream please");
    const heading = page.locator(".message.assistant .markdown h1");
    await page.locator(".message.assistant .markdown p").nth(1).waitFor();
    // Tag a finished block's node: if any later delta rebuilt it, the tag would be gone.
    await heading.evaluate((el) => {
      (el as HTMLElement & { __tag?: number }).__tag = 1;
    });
    await page.locator(".message.assistant .markdown p").nth(8).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    const before = await page.evaluate(() => document.scrollingElement?.scrollTop);
    await page.getByText("Paragraph 30 of a long").waitFor();
    expect(await heading.evaluate((el) => (el as HTMLElement & { __tag?: number }).__tag)).toBe(1);
    expect(await page.evaluate(() => document.scrollingElement?.scrollTop)).toBe(before);
    expect(await page.locator(".message.assistant .markdown p").count()).toBe(30);
  });
});

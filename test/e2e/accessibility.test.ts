// axe-core finds nothing wrong on a laptop (light) and a phone (dark): the inbox (the start page), the demo
// session, a session with each kind of card open in turn and then answered, an external agent's
// approval card with More… open, and a subagent's turn.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, it, type TestContext } from "vitest";
import { createSession } from "../../client/session-api";
import { buildShareUrl } from "../../client/session-link";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import { externalSession } from "./claude-code-harness";
import {
  askReply,
  baseUrl,
  gatewayToken,
  launchBrowser,
  postMessage,
  type Reply,
  say,
  scriptedSession,
  typeMessage,
} from "./harness";

const DEVICES: Record<string, BrowserContextOptions> = {
  laptop: { viewport: { width: 1280, height: 800 }, colorScheme: "light" },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: "dark" },
};

const call = (id: string, name: string, input: Record<string, unknown>): Reply => ({
  content: [{ type: "tool_use", id, name, input }],
});

const PLAN =
  "## Plan\n\n1. Ask which way\n2. Write the note **demo**\n\n| Step | Risk |\n|---|---|\n| write | edit |";
const FORM = {
  message: "Book the team offsite",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Organiser", minLength: 2 },
      day: { type: "string", title: "Day", format: "date" },
      people: { type: "integer", title: "People", minimum: 1, default: 8 },
      vegan: { type: "boolean", title: "Vegan catering", default: true },
      room: {
        type: "string",
        title: "Room",
        oneOf: [
          { const: "hall", title: "Main hall" },
          { const: "loft", title: "Loft" },
        ],
      },
      city: { type: "string", title: "City", enum: ["Berlin", "Lisbon", "Oslo", "Paris", "Rome"] },
      extras: { type: "array", title: "Extras", items: { type: "string", enum: ["Projector", "Coffee"] } },
    },
    required: ["name", "day"],
  },
};
const URL_TO_VISIT = "https://accounts.example.com/connect?account=ada";

describe.skipIf(!hasChromium)("an accessibility audit on a laptop and a phone", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Both devices at `url`, each in its own context, waiting for `ready` to show. */
  async function openBoth(url: string, ready: string): Promise<Page[]> {
    return Promise.all(
      Object.entries(DEVICES).map(async ([name, options]) => {
        const context = await browser.newContext({ ...options, reducedMotion: "reduce" });
        const page = await context.newPage();
        page.on("pageerror", (error) => console.error(`[${name}] page error:`, error));
        await page.goto(url);
        await page.locator(ready).first().waitFor();
        return page;
      }),
    );
  }

  /**
   * As openBoth, for one test alone: its pages close when it finishes, so they do not go on
   * rendering every later test's updates (the inbox's, each session's) while the file runs.
   */
  async function openBothFor({ onTestFinished }: TestContext, url: string, ready: string): Promise<Page[]> {
    const pages = await openBoth(url, ready);
    onTestFinished(async () => {
      await Promise.all(pages.map((page) => page.context().close()));
    });
    return pages;
  }

  /**
   * Audits every device at once (each page has a renderer of its own) and reports every failing one
   * together, in the order of `DEVICES`.
   */
  async function auditAll(pages: Page[], label: string, except: string[] = []): Promise<void> {
    const names = Object.keys(DEVICES);
    const outcomes = await Promise.allSettled(
      pages.map((page, i) => expectNoViolations(page, `${label} on the ${names[i]}`, { except })),
    );
    const failures = outcomes.flatMap((outcome) =>
      outcome.status === "rejected" ? [(outcome.reason as Error).message] : [],
    );
    if (failures.length > 0) throw new Error(failures.join("\n\n"));
  }

  it("finds nothing on the inbox, with a card waiting in it and the session list", async (context) => {
    const session = await scriptedSession([askReply("toolu_inbox_audit"), say("Noted.")]);
    await postMessage(session, "Plan the audit");
    const pages = await openBothFor(
      context,
      baseUrl(),
      `.inbox-group[data-session-id="${session.sessionId}"] .question-card`,
    );
    await auditAll(pages, "the inbox");
  });

  it("finds nothing in a new demo session, with its notice and the share panel open", async (context) => {
    const created = await createSession(baseUrl(), {}, { gatewayToken: gatewayToken() });
    const pages = await openBothFor(context, buildShareUrl(baseUrl(), created), ".demo-notice");
    for (const page of pages) {
      await page.getByText("Open on another device").click();
      await page.getByRole("button", { name: "Create link" }).waitFor();
    }
    await auditAll(pages, "a new demo session");
  });

  // One session whose cards open one after another; each test audits one of them open, then answers
  // it from one device, which opens the next.
  describe("with each kind of card open in turn — plan, question, approvals, form, page to visit — and once all are answered", () => {
    let laptop: Page;
    let phone: Page;
    let pages: Page[];
    beforeAll(async () => {
      const session = await scriptedSession(
        [
          call("toolu_plan", "ExitPlanMode", { plan: PLAN }),
          askReply("toolu_ask"),
          {
            content: ["a", "b"].map(
              (key) => call(`toolu_${key}`, "notes_write", { key, text: key }).content[0]!,
            ),
          },
          call("toolu_form", "RequestUserInput", FORM),
          call("toolu_url", "mcp__everything__trigger-url-elicitation", {
            url: URL_TO_VISIT,
            message: "Connect your example.com account",
          }),
          say("All done: **every** card answered."),
        ],
        { permissionMode: "plan", mcpServers: ["everything"] },
      );
      pages = await openBoth(session.shareUrl, ".connection[data-state=connected]");
      [laptop, phone] = pages as [Page, Page];
    });

    /** Waits on both devices for `button` in `card`, then audits them with the card open. */
    const auditOpen = async (card: string, button: string | RegExp, label: string) => {
      for (const page of pages)
        await page.locator(card).getByRole("button", { name: button, exact: true }).waitFor();
      await auditAll(pages, label);
    };
    const mcpCall = '.tool-card[data-tool-call-id="toolu_url"]';

    it("finds nothing on an empty session", async () => {
      await auditAll(pages, "an empty session");
      await typeMessage(laptop, "Plan, ask, write, book and connect");
    });

    it("finds nothing on an open plan card", async () => {
      await auditOpen(".plan-card", "Keep planning", "an open plan card");
      await phone.getByRole("button", { name: /Approve · review each action/ }).click();
    });

    it("finds nothing on an open question card", async () => {
      await auditOpen(".question-card", "Submit answers", "an open question card");
      await phone.getByLabel("Fast").click();
    });

    it("finds nothing on two open approval cards and the batch bar", async () => {
      await auditOpen(".batch-bar", "Approve all", "two open approval cards and the batch bar");
      await laptop.locator(".batch-bar").getByRole("button", { name: "Approve all" }).click();
    });

    it("finds nothing on an open form card, nor on one showing its field errors", async () => {
      await auditOpen(".form-card", "Accept", "an open form card");
      // Accepting without the required fields shows the page's own error under each of them.
      await laptop.locator(".form-card").getByRole("button", { name: "Accept" }).click();
      await laptop.locator(".form-card .field-error:not(:empty)").first().waitFor();
      await auditAll([laptop], "a form card showing its field errors");
      await phone.locator(".form-card").getByRole("button", { name: "Decline" }).click();
    });

    it("finds nothing on an open approval card for an MCP tool", async () => {
      // With each action reviewed, the MCP call asks for approval before it opens its page to visit.
      await auditOpen(`${mcpCall} .approval-card`, "Approve", "an open approval card for an MCP tool");
      await laptop.locator(mcpCall).getByRole("button", { name: "Approve", exact: true }).click();
    });

    it("finds nothing on an open page-to-visit card", async () => {
      await auditOpen(".url-card", "I've finished", "an open page-to-visit card");
      await phone.locator(".url-card").getByRole("button", { name: "I've finished" }).click();
    });

    it("finds nothing once every card is answered", async () => {
      for (const page of pages) await page.getByText("every card answered").waitFor();
      await auditAll(pages, "a session with every card answered");
    });
  });

  it("finds nothing on an external agent's approval card with More… open, nor on the agent's notice", async (context) => {
    const session = await externalSession(baseUrl(), `audit-more-${crypto.randomUUID()}`);
    const opened = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/interactions`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        kind: "approval",
        request: { toolName: "Bash", input: { command: "npm run test" } },
        cwd: "/home/ana/shop",
      }),
    });
    if (opened.status !== 201) throw new Error(`open the card: ${opened.status}`);
    const pages = await openBothFor(context, session.shareUrl, ".approval-card");
    for (const page of pages) {
      await page.locator(".agent-notice").waitFor();
      await page.locator(".approval-card summary", { hasText: "More…" }).click();
      await page.getByRole("button", { name: "Allow …" }).click();
      await page.getByText("Matches ", { exact: false }).first().waitFor();
    }
    await auditAll(pages, "an approval card with More… and its grant form open");
  });

  it("finds nothing while the person talks to a subagent", async (context) => {
    const session = await scriptedSession([
      {
        content: [
          { type: "text", text: "I'll ask the researcher." },
          {
            type: "tool_use",
            id: "toolu_delegate",
            name: "Agent",
            input: {
              description: "Research async APIs",
              prompt: "Find async APIs.",
              subagent_type: "researcher",
            },
          },
        ],
      },
      say("Which Python version matters to you?"),
    ]);
    const pages = await openBothFor(context, session.shareUrl, ".connection[data-state=connected]");
    await typeMessage(pages[0] as Page, "Research async APIs");
    for (const page of pages) {
      await page.getByText("Which Python version matters to you?").waitFor();
      await page.getByRole("button", { name: "End researcher" }).waitFor();
    }
    await auditAll(pages, "a conversation with a subagent");
  });

  it("finds nothing when a turn fails, with the error and Retry shown", async (context) => {
    const session = await scriptedSession([
      { content: [], error: { code: "invalid_request", message: "the model fell over" } },
    ]);
    const pages = await openBothFor(context, session.shareUrl, ".connection[data-state=connected]");
    await typeMessage(pages[0] as Page, "please work");
    for (const page of pages) await page.getByRole("button", { name: "Retry" }).waitFor();
    await auditAll(pages, "a failed turn");
  });
});

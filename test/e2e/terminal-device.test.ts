import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { buildBridges } from "./claude-code-harness";
import {
  askReply,
  baseUrl,
  launchBrowser,
  openDevice,
  say,
  scriptedSession,
  type TestSession,
} from "./harness";
import { hasTmux, TmuxTerminal } from "./tmux-terminal";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LINKS = mkdtempSync(join(tmpdir(), "parley-attach-"));

/** A file holding `link`, for `--link-file`: the link is never an argument. */
function linkFile(link: string): string {
  const path = join(LINKS, `${crypto.randomUUID()}.txt`);
  writeFileSync(path, `${link}\n`, { mode: 0o600 });
  return path;
}
const PARLEY = [process.execPath, "bin/parley.mjs"];

function attach(session: TestSession): TmuxTerminal {
  const terminal = TmuxTerminal.start(
    [...PARLEY, "attach", "--link-file", linkFile(session.shareUrl), "--device", "terminal"],
    ROOT,
  );
  terminals.push(terminal);
  return terminal;
}

const approveNotes = {
  content: [
    { type: "text" as const, text: "Writing it down." },
    {
      type: "tool_use" as const,
      id: "toolu_cli_notes",
      name: "notes_write",
      input: { key: "plan", text: "thorough" },
    },
  ],
};

let terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const terminal of terminals) terminal.kill();
  terminals = [];
});

describe.skipIf(!hasChromium || !hasTmux)("the terminal device (tmux, wrangler dev, chromium)", () => {
  let browser: Browser;
  beforeAll(async () => {
    buildBridges();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("answers a question and an approval while a browser device shows the receipts", async () => {
    const session = await scriptedSession([
      askReply("toolu_cli_ask"),
      approveNotes,
      say("Noted the thorough plan."),
    ]);
    const browserPage: Page = await openDevice(browser, session, "browser");
    const terminal = attach(session);
    await terminal.waitFor(/Connected as terminal/);

    terminal.line("Plan the release");
    await browserPage.getByText("Plan the release").waitFor();
    await terminal.waitFor(/\? \[Plan\] Which plan should I follow\?[\s\S]*1\) Fast[\s\S]*3\) Other/);
    expect(terminal.text().match(/you› Plan the release/g)).toHaveLength(1);
    terminal.line("2");
    await terminal.waitFor(/✓ Answered\n/);
    await browserPage.locator(".receipt[data-outcome=answered]").waitFor();
    expect(await browserPage.locator(".receipt").first().textContent()).toBe("Answered on another device");
    expect(await browserPage.locator(".answer-summary dd").textContent()).toBe("Thorough");

    await terminal.waitFor(/! Approve notes_write/);
    terminal.line("a");
    await browserPage.locator(".receipt[data-outcome=approved]").waitFor();
    expect(await browserPage.locator(".receipt[data-outcome=approved]").textContent()).toBe(
      "Approved on another device",
    );
    await terminal.waitFor(/Noted the thorough plan\./);
  });

  it("loses to a browser that answers first, shows that device's receipt, and leaves on Ctrl-C", async () => {
    const session = await scriptedSession([askReply("toolu_cli_race"), say("Fast it is.")]);
    const browserPage = await openDevice(browser, session, "browser");
    const terminal = attach(session);
    await terminal.waitFor(/Connected as terminal/);
    terminal.line("Plan it");
    await terminal.waitFor(/1\) Fast/);
    // A lone single-choice question is answered by the click itself.
    await browserPage.getByLabel("Fast").click();
    const screen = await terminal.waitFor(/✓ Answered on another device \(web-[0-9a-f]+\)/);
    expect(screen).toMatch(/you› *$/m);
    await terminal.waitFor(/Fast it is\./);

    terminal.keys("C-c");
    await terminal.waitFor(/Left the session/);
    // tmux sometimes never collects the status of a pane whose process exited on its own (seen here
    // under load); "ended" then still means the process is gone, and not by a signal.
    await expect.poll(() => terminal.exitState(), { timeout: 20_000 }).toMatch(/^(exited 0|ended)$/);
  });

  it("fills in a form a tool asks for mid-run, field by field, while the browser shows the receipt", async () => {
    const session = await scriptedSession(
      [
        {
          content: [
            {
              type: "tool_use",
              id: "toolu_cli_cal",
              name: "calendar_add_event",
              input: { title: "Dentist" },
            },
          ],
        },
        say("It's in the calendar."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    const browserPage = await openDevice(browser, session, "browser");
    const terminal = attach(session);
    await terminal.waitFor(/Connected as terminal/);
    terminal.line("Dentist on Dec 1st at 9:30");
    await terminal.waitFor(/▤ [\s\S]*Title \* \[Dentist\]/);
    terminal.line("");
    await terminal.waitFor(/Starts at \*/);
    terminal.line("2026-12-01T09:30");
    await terminal.waitFor(/Length \(minutes\) \* \[30\]/);
    terminal.line("45");
    await terminal.waitFor(/✓ Accepted\n/);
    const card = browserPage.locator(".tool-card[data-tool-call-id=toolu_cli_cal] .form-card");
    await card.locator(".receipt[data-outcome=answered]").waitFor();
    expect(await card.locator(".receipt").textContent()).toBe("Accepted on another device");
    await browserPage
      .getByText("Added “Dentist” at 2026-12-01T09:30 for 45 minutes.")
      .waitFor({ state: "attached" });
    await terminal.waitFor(/It's in the calendar\./);
  });

  it("declines one form and dismisses the next from the terminal, while the browser shows each receipt", async () => {
    const addEvent = (id: string, title: string) => ({
      content: [{ type: "tool_use" as const, id, name: "calendar_add_event", input: { title } }],
    });
    const session = await scriptedSession(
      [addEvent("toolu_cli_no", "Dentist"), addEvent("toolu_cli_later", "Gym"), say("Nothing was added.")],
      { permissionMode: "bypassPermissions" },
    );
    const browserPage = await openDevice(browser, session, "browser");
    const terminal = attach(session);
    await terminal.waitFor(/Connected as terminal/);
    terminal.line("Add the dentist and the gym");
    await terminal.waitFor(
      /▤ Add “Dentist”[\s\S]*!decline declines, !cancel dismisses the form\.[\s\S]*Title \*/,
    );
    terminal.line("!decline");
    await terminal.waitFor(/✓ Declined\n/);
    const declined = browserPage.locator(".tool-card[data-tool-call-id=toolu_cli_no] .form-card .receipt");
    await declined.waitFor();
    expect(await declined.textContent()).toBe("Declined on another device");
    await browserPage
      .getByText("The user declined; nothing was added to the calendar.")
      .waitFor({ state: "attached" });

    await terminal.waitFor(/▤ Add “Gym”/);
    terminal.line("!cancel");
    await terminal.waitFor(/✓ Dismissed\n/);
    const dismissed = browserPage.locator(
      ".tool-card[data-tool-call-id=toolu_cli_later] .form-card .receipt",
    );
    await dismissed.waitFor();
    expect(await dismissed.textContent()).toBe("Dismissed on another device");
    await browserPage
      .getByText("The form was dismissed or timed out; nothing was added to the calendar.")
      .waitFor({ state: "attached" });
    await terminal.waitFor(/Nothing was added\./);
  });

  it("answers a plan: keeps planning with feedback, then approves it with edits accepted, as the browser shows", async () => {
    const plan = (id: string, text: string) => ({
      content: [{ type: "tool_use" as const, id, name: "ExitPlanMode", input: { plan: text } }],
    });
    const session = await scriptedSession(
      [
        plan("toolu_cli_plan", "1. Write the note"),
        plan("toolu_cli_plan2", "1. Write the note\n2. Test it"),
        say("Carrying it out."),
      ],
      { permissionMode: "plan" },
    );
    const browserPage = await openDevice(browser, session, "browser");
    const terminal = attach(session);
    await terminal.waitFor(/Connected as terminal/);
    terminal.line("Plan the note");
    await terminal.waitFor(
      /☰ Ready to carry out this plan\?\n {2}1\. Write the note\n {2}1\) Approve · accept edits {3}2\) Approve · review each action {3}3\) Keep planning/,
    );
    terminal.line("3");
    await terminal.waitFor(/feedback› /);
    terminal.line("Add a test step");
    await terminal.waitFor(/✓ Keep planning: “Add a test step”\n/);
    const kept = browserPage.locator(".tool-card[data-tool-call-id=toolu_cli_plan] .plan-card .receipt");
    await kept.waitFor();
    expect(await kept.textContent()).toBe("Keep planning: “Add a test step” on another device");

    await terminal.waitFor(/2\. Test it/);
    terminal.line("1");
    await terminal.waitFor(/✓ Plan approved · edits run without asking\n/);
    await expect.poll(() => browserPage.getByLabel("Permission mode").inputValue()).toBe("acceptEdits");
    await terminal.waitFor(/Carrying it out\./);
  });

  it("refuses a bad or expired link with one line and exit code 2, changing nothing", async () => {
    const session = await scriptedSession([say("unused")]);
    const before = await (
      await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/events`, {
        headers: { authorization: `Bearer ${session.token}` },
      })
    ).json();
    const wrongToken = session.shareUrl.replace(/token=[^&]+/, `token=${"A".repeat(43)}`);
    for (const link of [wrongToken, "https://example.invalid/not-a-link"]) {
      const run = spawnSync(PARLEY[0]!, [PARLEY[1]!, "attach"], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 15_000,
        input: `${link}\n`,
      });
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(
        /^parley: (this link does not open a session: Wrong token|not a Parley share link)/,
      );
    }
    const after = await (
      await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/events`, {
        headers: { authorization: `Bearer ${session.token}` },
      })
    ).json();
    expect(after).toEqual(before);
  });

  it("refuses a link given as an argument with exit code 2, saying how to pass it, and never prints it", () => {
    const session = { shareUrl: `${baseUrl()}/#/s/${"0".repeat(32)}?token=${"B".repeat(43)}` };
    for (const args of [[session.shareUrl], ["--device", "terminal", session.shareUrl]]) {
      const run = spawnSync(PARLEY[0]!, [PARLEY[1]!, "attach", ...args], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 15_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--link-file FILE, on standard input, or paste it/);
      expect(`${run.stdout}${run.stderr}`).not.toContain("B".repeat(43));
    }
  });
});

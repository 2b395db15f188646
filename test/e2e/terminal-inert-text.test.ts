import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { buildBridges } from "./claude-code-harness";
import { postMessage, say, scriptedSession, type TestSession } from "./harness";
import { hasTmux, TmuxTerminal } from "./tmux-terminal";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const ESC = "\u001b";
const BEL = "\u0007";
// What model text (or any other device's message) could try on a terminal that printed it raw.
const CLEAR_SCREEN = `${ESC}[2J${ESC}[H`;
const SET_CLIPBOARD = `${ESC}]52;c;${Buffer.from("rm -rf ~").toString("base64")}${BEL}`;
const PLANT_LINK = `${ESC}]8;;https://evil.example/${ESC}\\click here${ESC}]8;;${ESC}\\`;
const CSI_C1 = "\u009b31m";

let terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const terminal of terminals) terminal.kill();
  terminals = [];
});

/** A file holding `link`, for `--link-file`: the link is never an argument. */
function linkFile(link: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "parley-attach-")), "link.txt");
  writeFileSync(path, `${link}\n`, { mode: 0o600 });
  return path;
}

function attach(session: TestSession): TmuxTerminal {
  const terminal = TmuxTerminal.start(
    [
      process.execPath,
      "bin/parley.mjs",
      "attach",
      "--link-file",
      linkFile(session.shareUrl),
      "--device",
      "terminal",
    ],
    ROOT,
  );
  terminals.push(terminal);
  return terminal;
}

function buffers(): string {
  const listed = spawnSync("tmux", ["list-buffers"], { encoding: "utf8" });
  return listed.stdout ?? "";
}

// The wrangler dev server comes with the browser suite's global setup, which needs chromium.
describe.skipIf(!hasChromium || !hasTmux)("text the terminal device prints (tmux)", () => {
  beforeAll(() => {
    buildBridges();
  });

  it("prints escape sequences in model text and messages as inert text", async () => {
    const session = await scriptedSession([
      say(`Before${CLEAR_SCREEN} ${SET_CLIPBOARD} ${PLANT_LINK} ${CSI_C1}red\nAfter the payloads.\n`),
    ]);
    const clipboardBefore = buffers();
    const terminal = attach(session);
    await terminal.waitFor(/Connected as terminal/);
    terminal.line("first line on screen");
    await terminal.waitFor(/After the payloads\./);
    await postMessage(session, `from elsewhere ${ESC}]52;c;ZXZpbA==${BEL}`);
    await terminal.waitFor(/from elsewhere/);

    const screen = terminal.text();
    // Nothing was cleared: the earlier lines are still on the screen.
    expect(screen).toMatch(/Connected as terminal[\s\S]*first line on screen[\s\S]*After the payloads\./);
    // Each control character is shown, spelled out, instead of obeyed.
    expect(screen).toContain("Before\\x1b[2J\\x1b[H");
    expect(screen).toContain("\\x1b]52;c;");
    expect(screen).toContain("\\x1b]8;;https://evil.example/\\x1b\\click here");
    expect(screen).toContain("\\x9b31mred");
    expect(screen).toContain("from elsewhere \\x1b]52;c;ZXZpbA==\\x07");
    // No OSC 52 reached tmux, which would have stored the payload as a paste buffer.
    expect(buffers()).toBe(clipboardBefore);
    const raw = execFileSync("tmux", ["capture-pane", "-p", "-e", "-S", "-500", "-t", terminal.name], {
      encoding: "utf8",
    });
    expect(raw).not.toContain("evil.example/\u001b");
  });
});

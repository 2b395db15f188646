// A file edit answered in a terminal shows as a diff whose added and removed lines are coloured on a
// terminal, and plain with NO_COLOR or off a terminal; an MCP call's long values say what is cut.
import type { Interface as ReadLine } from "node:readline";
import { describe, expect, it } from "vitest";
import type { Card } from "../../../bin/card-prompts";
import { TerminalDevice } from "../../../bin/terminal-device";
import { wantsColor } from "../../../bin/terminal-paint";
import type { SessionClient } from "../../../client/client";
import { run } from "../../helpers/terminal-prompts";

const GREEN = "\x1b[32m";
const RED = "\x1b[31m";
const RESET = "\x1b[0m";

const edit = (newString: string) => ({
  toolName: "Edit",
  input: { file_path: "src/app.ts", old_string: "let a = 1;\nlet b = 2;", new_string: newString },
  risk: "edit",
});

/** What a terminal device writes for an approval card, coloured or not. */
function written(request: object, color: boolean): string {
  const handlers = new Map<string, (value: unknown) => void>();
  const client = {
    on: (event: string, handler: (value: unknown) => void) => handlers.set(event, handler),
    send: () => Promise.resolve({}),
  };
  const rl = { on: () => rl, setPrompt: () => undefined, prompt: () => undefined };
  const out: string[] = [];
  new TerminalDevice(
    client as unknown as SessionClient,
    rl as unknown as ReadLine,
    (text) => out.push(text),
    "laptop",
    false,
    color,
  );
  handlers.get("events")?.([
    {
      seq: 1,
      type: "interaction_prompt",
      data: {
        interactionId: "toolu_e-1",
        toolCallId: "toolu_e",
        kind: "approval",
        toolName: "Edit",
        request,
      },
    },
  ]);
  return out.join("");
}

describe("an Edit's approval in a terminal", () => {
  it("colours its added lines green and its removed lines red, with + and - as well", () => {
    const text = written(edit("let a = 1;\nlet b = 3;"), true);
    expect(text).toContain("src/app.ts  +1 \u22121");
    expect(text).toContain(`${RED}- let b = 2;${RESET}`);
    expect(text).toContain(`${GREEN}+ let b = 3;${RESET}`);
    // The unchanged line is plain.
    expect(text).toContain("\r\x1b[K  let a = 1;\n");
  });

  it("writes no colour when the terminal wants none", () => {
    const text = written(edit("let a = 1;\nlet b = 3;"), false);
    expect(text).toContain("- let b = 2;");
    expect(text).toContain("+ let b = 3;");
    expect(text).not.toContain(GREEN);
    expect(text).not.toContain(RED);
    expect(text).not.toContain(RESET);
  });

  it("keeps an agent's escape codes inert inside a coloured line", () => {
    const text = written(edit("let a = 1;\nlet b = '\x1b[2J\x1b]52;c;aGk=\x07';"), true);
    expect(text).toContain(`${GREEN}+ let b = '\\x1b[2J\\x1b]52;c;aGk=\\x07';${RESET}`);
    expect(text).not.toContain("\x1b[2J");
    expect(text).not.toContain("\x1b]52");
  });
});

describe("whether the terminal wants colour", () => {
  it("is yes on a terminal, and no with NO_COLOR set to anything or off a terminal", () => {
    expect(wantsColor({}, true)).toBe(true);
    expect(wantsColor({ NO_COLOR: "" }, true)).toBe(true);
    expect(wantsColor({ NO_COLOR: "1" }, true)).toBe(false);
    expect(wantsColor({ NO_COLOR: "0" }, true)).toBe(false);
    expect(wantsColor({}, false)).toBe(false);
    expect(wantsColor({}, undefined)).toBe(false);
  });
});

describe("other calls' approvals in a terminal", () => {
  it("show a Write as the file's line count and its lines, and keep approving as before", () => {
    const card: Card = {
      toolCallId: "toolu_w",
      kind: "approval",
      toolName: "Write",
      request: {
        toolName: "Write",
        input: { file_path: "notes.md", content: "# Notes\nfirst\n" },
        risk: "edit",
      },
    };
    const [start, sent] = run(card, ["a"]);
    expect(start).toMatchObject({
      lines: [
        "! Approve Write (edit)?",
        { text: "writes 2 lines to notes.md", tone: "heading" },
        "  # Notes",
        "  first",
        expect.any(String),
      ],
    });
    expect(sent).toEqual({ kind: "send", command: { type: "approve", toolCallId: "toolu_w" } });
  });

  it("show an MCP call's arguments one per line, a long value cut with how much is left out", () => {
    const card: Card = {
      toolCallId: "toolu_m",
      kind: "approval",
      toolName: "mcp__github__comment",
      request: {
        toolName: "mcp__github__comment",
        input: { repo: "acme/app", body: "y".repeat(250) },
        mcp: { server: "github", tool: "comment", fields: { repo: "Repository" } },
      },
    };
    const [start] = run(card, []);
    expect(start).toMatchObject({
      lines: [
        "! Approve mcp__github__comment?",
        "  Repository (repo): acme/app",
        `  body: ${"y".repeat(200)}…(50 more chars)`,
        "  (a long value is cut here: e shows the whole input)",
        expect.any(String),
      ],
    });
  });

  it("show any other call as its JSON, as before", () => {
    const card: Card = {
      toolCallId: "toolu_b",
      kind: "approval",
      toolName: "Bash",
      request: { toolName: "Bash", input: { command: "ls" }, risk: "execute" },
    };
    expect(run(card, [])[0]).toMatchObject({
      lines: ['! Approve Bash (execute)? {"command":"ls"}', expect.any(String)],
    });
  });
});

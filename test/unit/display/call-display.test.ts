// A call's display model: Claude Code edits as diffs, a write as the file with its line count, a
// notebook edit by cell, ACP diff content, MCP arguments titled from the schema, and JSON otherwise.
import { describe, expect, it } from "vitest";
import { FOLD_CHARS, foldText } from "../../../src/display/call-arguments";
import { callDisplay } from "../../../src/display/call-display";
import { schemaTitles } from "../../../src/display/schema-titles";

function marked(display: ReturnType<typeof callDisplay>): string[] {
  if (display.kind !== "diff") throw new Error(`not a diff: ${display.kind}`);
  return display.files.flatMap((file) =>
    file.hunks.flatMap((hunk) =>
      hunk.lines.map(
        (line) => `${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "}${line.text}`,
      ),
    ),
  );
}

describe("an Edit", () => {
  it("is a diff of its old text to its new text, counting the lines each side gains and loses", () => {
    const display = callDisplay({
      toolName: "Edit",
      input: {
        file_path: "src/app.ts",
        old_string: "const a = 1;\nconst b = 2;\nconst c = 3;",
        new_string: "const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;",
      },
    });
    expect(display).toMatchObject({ kind: "diff", added: 2, removed: 1 });
    expect(display.kind === "diff" && display.files.map((file) => file.path)).toEqual(["src/app.ts"]);
    expect(marked(display)).toEqual([
      " const a = 1;",
      "-const b = 2;",
      "+const b = 20;",
      "+const bb = 21;",
      " const c = 3;",
    ]);
  });

  it("numbers no lines, since where the old text sits in its file is not known", () => {
    const display = callDisplay({
      toolName: "Edit",
      input: { file_path: "a.ts", old_string: "x", new_string: "y" },
    });
    const lines = display.kind === "diff" ? display.files[0]?.hunks[0]?.lines : [];
    expect(lines?.every((line) => line.oldLine === null && line.newLine === null)).toBe(true);
  });

  it("marks an edit that replaces every occurrence", () => {
    const display = callDisplay({
      toolName: "Edit",
      input: { file_path: "a.ts", old_string: "foo", new_string: "bar", replace_all: true },
    });
    expect(display.kind === "diff" && display.files[0]?.hunks[0]?.everyOccurrence).toBe(true);
  });
});

describe("a MultiEdit", () => {
  it("is one hunk per edit of the one file, with the counts summed", () => {
    const display = callDisplay({
      toolName: "MultiEdit",
      input: {
        file_path: "src/app.ts",
        edits: [
          { old_string: "one", new_string: "uno" },
          { old_string: "two\nthree", new_string: "three", replace_all: false },
        ],
      },
    });
    expect(display).toMatchObject({ kind: "diff", added: 1, removed: 2 });
    expect(display.kind === "diff" && display.files[0]?.hunks.length).toBe(2);
    expect(marked(display)).toEqual(["-one", "+uno", "-two", " three"]);
  });
});

describe("a Write", () => {
  it("is the new file with its line count, a last newline ending the last line", () => {
    expect(
      callDisplay({ toolName: "Write", input: { file_path: "b.md", content: "# B\n\ntext\n" } }),
    ).toEqual({
      kind: "file",
      path: "b.md",
      lines: 3,
      text: "# B\n\ntext\n",
    });
    expect(callDisplay({ toolName: "Write", input: { file_path: "e.md", content: "" } })).toMatchObject({
      lines: 0,
    });
    expect(callDisplay({ toolName: "Write", input: { file_path: "f.md", content: "a\nb" } })).toMatchObject({
      lines: 2,
    });
  });
});

describe("a NotebookEdit", () => {
  it("is shown by cell: which cell, how it changes, and its new source", () => {
    expect(
      callDisplay({
        toolName: "NotebookEdit",
        input: {
          notebook_path: "nb.ipynb",
          cell_id: "c1",
          new_source: "import os\nprint(os.getcwd())",
          cell_type: "code",
          edit_mode: "insert",
        },
      }),
    ).toEqual({
      kind: "cells",
      path: "nb.ipynb",
      cells: [
        { cellId: "c1", mode: "insert", cellType: "code", source: "import os\nprint(os.getcwd())", lines: 2 },
      ],
    });
  });

  it("replaces a cell when it names no mode", () => {
    const display = callDisplay({
      toolName: "NotebookEdit",
      input: { notebook_path: "nb.ipynb", cell_id: "c2", new_source: "x" },
    });
    expect(display.kind === "cells" && display.cells[0]).toMatchObject({ mode: "replace", cellType: null });
  });
});

describe("ACP diff content", () => {
  const acp = (content: unknown[]) => ({ acp: { content, allowAlways: false, rejectAlways: false } });

  it("is a diff of each file, whole files numbered, a missing old text a new file", () => {
    const oldText = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n");
    const newText = oldText.replace("line 5", "line five");
    const display = callDisplay({
      toolName: "acp:edit",
      input: {},
      request: acp([
        { type: "text", text: "Edits two files" },
        { type: "diff", path: "/w/a.txt", oldText, newText },
        { type: "diff", path: "/w/new.txt", oldText: null, newText: "hello\n" },
      ]),
    });
    expect(display).toMatchObject({ kind: "diff", added: 2, removed: 1 });
    if (display.kind !== "diff") return;
    const [edited, created] = display.files;
    expect(created).toMatchObject({ path: "/w/new.txt", newFile: true, added: 1, removed: 0 });
    // Three unchanged lines either side of the change, not the whole file.
    const lines = edited?.hunks[0]?.lines ?? [];
    expect(lines.map((line) => line.text)).toEqual([
      "line 2",
      "line 3",
      "line 4",
      "line 5",
      "line five",
      "line 6",
      "line 7",
      "line 8",
    ]);
    expect(lines.find((line) => line.kind === "removed")).toMatchObject({ oldLine: 5, newLine: null });
    expect(lines.find((line) => line.kind === "added")).toMatchObject({ oldLine: null, newLine: 5 });
  });

  it("keeps its work bounded: a change past jsdiff's edit limit reads as all old lines out and all new in", () => {
    const oldText = Array.from({ length: 3_000 }, (_, i) => `a${i}`).join("\n");
    const newText = Array.from({ length: 3_000 }, (_, i) => `b${i}`).join("\n");
    const display = callDisplay({
      toolName: "acp:edit",
      input: {},
      request: acp([{ type: "diff", path: "big.txt", oldText, newText }]),
    });
    expect(display).toMatchObject({ kind: "diff", added: 3_000, removed: 3_000 });
  });
});

describe("an MCP call", () => {
  it("is a table of its arguments titled from the tool's input schema, its name kept beside", () => {
    const fields = schemaTitles({
      type: "object",
      properties: {
        repo: { type: "string", title: "Repository" },
        body: { type: "string", description: "The comment's text" },
        draft: { type: "boolean" },
      },
    });
    const display = callDisplay({
      toolName: "mcp__github__comment",
      input: { repo: "acme/app", body: "x".repeat(FOLD_CHARS + 1), draft: false, labels: ["a", "b"] },
      request: {
        toolName: "mcp__github__comment",
        input: {},
        mcp: { server: "github", tool: "comment", fields },
      },
    });
    expect(display).toEqual({
      kind: "arguments",
      rows: [
        { name: "repo", title: "Repository", value: "acme/app", folded: false },
        { name: "body", title: "The comment's text", value: "x".repeat(FOLD_CHARS + 1), folded: true },
        { name: "draft", title: "draft", value: "false", folded: false },
        { name: "labels", title: "labels", value: '[\n  "a",\n  "b"\n]', folded: false },
      ],
    });
  });

  it("from an agent with no schema is titled by its argument names", () => {
    const display = callDisplay({ toolName: "mcp__fs__read", input: { path: "/etc/hosts" } });
    expect(display).toEqual({
      kind: "arguments",
      rows: [{ name: "path", title: "path", value: "/etc/hosts", folded: false }],
    });
  });

  it("folds a value of many short lines as well as a long one", () => {
    const display = callDisplay({ toolName: "mcp__x__y", input: { script: "a\nb\nc\nd\ne" } });
    expect(display.kind === "arguments" && display.rows[0]?.folded).toBe(true);
  });

  it("takes a schema title for an argument named __proto__ like any other", () => {
    const titles = schemaTitles({ properties: JSON.parse('{"__proto__": {"title": "Prototype"}}') });
    expect(Object.hasOwn(titles, "__proto__")).toBe(true);
    const display = callDisplay({
      toolName: "mcp__x__y",
      input: JSON.parse('{"__proto__": 1}'),
      request: { mcp: { server: "x", tool: "y", fields: titles } },
    });
    expect(display.kind === "arguments" && display.rows[0]?.title).toBe("Prototype");
  });
});

describe("a value cut for chat or a terminal", () => {
  it("says how many characters were left out", () => {
    expect(foldText("abcdefghij", 4)).toBe("abcd…(6 more chars)");
    expect(foldText("abcd", 4)).toBe("abcd");
  });

  it("never splits a surrogate pair", () => {
    expect(foldText("ab😀cd", 3)).toBe("ab…(4 more chars)");
  });
});

describe("a malformed input", () => {
  it.each([
    ["Edit", { file_path: "a.ts", old_string: 1, new_string: "x" }],
    ["Edit", { old_string: "a", new_string: "b" }],
    ["Edit", { file_path: "  ", old_string: "a", new_string: "b" }],
    ["Edit", { file_path: "a.ts", old_string: "a", new_string: "b", replace_all: "yes" }],
    ["MultiEdit", { file_path: "a.ts", edits: [] }],
    ["MultiEdit", { file_path: "a.ts", edits: [{ old_string: "a", new_string: "b" }, null] }],
    ["Write", { file_path: "a.ts", content: { text: "x" } }],
    ["Write", "a.ts"],
    ["NotebookEdit", { notebook_path: "n.ipynb", new_source: "x", edit_mode: "append" }],
    ["NotebookEdit", { notebook_path: "n.ipynb", new_source: "x", cell_type: "raw" }],
    ["NotebookEdit", { notebook_path: "n.ipynb", new_source: "x", cell_id: 3 }],
    ["mcp__x__y", ["not", "an", "object"]],
    ["mcp__x__y", {}],
    ["Bash", { command: "ls" }],
  ])("falls back to JSON (%s %j)", (toolName, input) => {
    expect(callDisplay({ toolName, input })).toEqual({ kind: "json" });
  });

  it("in an ACP diff block falls back to the tool's own display", () => {
    const request = { acp: { content: [{ type: "diff", path: "a.txt", oldText: 5, newText: "x" }] } };
    expect(callDisplay({ toolName: "acp:edit", input: {}, request })).toEqual({ kind: "json" });
  });
});

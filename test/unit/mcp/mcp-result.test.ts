import { describe, expect, it } from "vitest";
import { describeCallResult } from "../../../src/mcp/mcp-result";

describe("MCP tool results", () => {
  it("joins text blocks in order and keeps isError", () => {
    expect(
      describeCallResult("s", {
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
        isError: true,
      }),
    ).toEqual({ content: "first\n\nsecond", isError: true });
  });

  it("adds structured content unless a text block already repeats it", () => {
    expect(describeCallResult("s", { content: [], structuredContent: { a: 1 } })).toEqual({
      content: 'Structured content:\n{\n  "a": 1\n}',
      isError: false,
    });
    expect(
      describeCallResult("s", { content: [{ type: "text", text: '{"a": 1}' }], structuredContent: { a: 1 } }),
    ).toEqual({ content: '{"a": 1}', isError: false });
  });

  it("describes resource links, embedded resources and binary content instead of inlining bytes", () => {
    const { content } = describeCallResult("s", {
      content: [
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "file:///b.md", mimeType: "text/markdown", text: "# B" } },
        { type: "resource", resource: { uri: "file:///c.bin", blob: "AAAA" } },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "audio", mimeType: "audio/wav", data: "" },
      ],
    }) as { content: string };
    expect(content.split("\n\n")).toEqual([
      "[resource link: a.txt <file:///a.txt> (text/plain)]",
      "[resource file:///b.md (text/markdown)]\n# B",
      "[resource file:///c.bin: binary, 3 bytes — not shown to the model]",
      "[image: image/png, 8 bytes — not shown to the model]",
      "[audio: audio/wav, 0 bytes — not shown to the model]",
    ]);
  });

  it("turns a result that is not shaped like one into an error", () => {
    expect(describeCallResult("weird", { content: "nope" })).toEqual({
      content: 'MCP server "weird" returned a malformed tool result.',
      isError: true,
    });
  });
});

import { describe, expect, it } from "vitest";
import { describeCallResult, MAX_IMAGE_CHARS } from "../../../src/mcp/mcp-result";

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

  it("passes small images on as images and describes large ones, other types and audio", () => {
    const big = "A".repeat(MAX_IMAGE_CHARS + 4);
    const output = describeCallResult("s", {
      content: [
        { type: "text", text: "Here:" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "image", mimeType: "image/png", data: big },
        { type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" },
      ],
    });
    expect(output).toEqual({
      content: [
        "Here:",
        "[image 1: image/png, 8 bytes — shown below]",
        `[image: image/png, ${((big.length * 3) / 4 / 1024).toFixed(1)} KB — not shown to the model]`,
        "[image: image/svg+xml, 5 bytes — not shown to the model]",
      ].join("\n\n"),
      isError: false,
      images: [{ mediaType: "image/png", data: "iVBORw0KGgo=" }],
    });
  });

  it("describes resource links, embedded resources and binary content instead of inlining bytes", () => {
    const { content } = describeCallResult("s", {
      content: [
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "file:///b.md", mimeType: "text/markdown", text: "# B" } },
        { type: "resource", resource: { uri: "file:///c.bin", blob: "AAAA" } },
        { type: "image", mimeType: "image/tiff", data: "iVBORw0KGgo=" },
        { type: "audio", mimeType: "audio/wav", data: "" },
      ],
    }) as { content: string };
    expect(content.split("\n\n")).toEqual([
      "[resource link: a.txt <file:///a.txt> (text/plain)]",
      "[resource file:///b.md (text/markdown)]\n# B",
      "[resource file:///c.bin: binary, 3 bytes — not shown to the model]",
      "[image: image/tiff, 8 bytes — not shown to the model]",
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

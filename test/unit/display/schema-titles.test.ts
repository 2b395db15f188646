// The argument titles an MCP tool's input schema gives, kept with its approval cards: the title,
// else the description, bounded in number and length; a card that carries more is refused.
import { describe, expect, it } from "vitest";
import { MAX_TITLE_CHARS, MAX_TITLED_ARGUMENTS, schemaTitles } from "../../../src/display/schema-titles";
import { ApprovalRequest } from "../../../src/interactions/kinds/approval";

describe("schema titles", () => {
  it("take each property's title, else its description, and skip one with neither", () => {
    expect(
      schemaTitles({
        type: "object",
        properties: {
          a: { type: "string", title: "Alpha", description: "not this" },
          b: { type: "string", description: "  Beta  " },
          c: { type: "number" },
          d: { type: "string", title: "   ", description: "Delta" },
          e: "not a schema",
        },
      }),
    ).toEqual({ a: "Alpha", b: "Beta", d: "Delta" });
  });

  it("are empty for a schema without properties, or for no schema", () => {
    expect(schemaTitles({ type: "object" })).toEqual({});
    expect(schemaTitles(null)).toEqual({});
    expect(schemaTitles({ properties: ["x"] })).toEqual({});
  });

  it("keep at most 64 arguments and 200 characters of each", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`p${i}`, { title: "t".repeat(500) }]),
    );
    const titles = schemaTitles({ properties });
    expect(Object.keys(titles)).toHaveLength(MAX_TITLED_ARGUMENTS);
    expect(Object.values(titles).every((title) => title.length === MAX_TITLE_CHARS)).toBe(true);
  });
});

describe("an approval request's MCP titles", () => {
  const request = (fields: Record<string, string>) => ({
    toolName: "mcp__x__y",
    input: {},
    mcp: { server: "x", tool: "y", fields },
  });

  it("are taken within the bounds", () => {
    expect(ApprovalRequest.safeParse(request({ path: "File path" })).success).toBe(true);
  });

  it("are refused past 64 arguments, or past 200 characters a title", () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_TITLED_ARGUMENTS + 1 }, (_, i) => [`p${i}`, "t"]),
    );
    const tooMany = ApprovalRequest.safeParse(request(many));
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0]?.message).toBe("mcp.fields must title at most 64 arguments");
    expect(ApprovalRequest.safeParse(request({ path: "t".repeat(MAX_TITLE_CHARS + 1) })).success).toBe(false);
  });
});

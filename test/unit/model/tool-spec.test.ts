import { describe, expect, it } from "vitest";
import * as z from "zod";
import { toToolSpec } from "../../../src/model/tool-spec";

describe("toToolSpec", () => {
  it("describes an object input as JSON Schema, with defaulted fields optional and no dialect", () => {
    const spec = toToolSpec(
      "echo",
      "Repeats its text.",
      z.object({ text: z.string().describe("What to repeat."), times: z.number().int().default(1) }),
    );
    expect(spec).toEqual({
      name: "echo",
      description: "Repeats its text.",
      input_schema: {
        type: "object",
        properties: {
          text: { type: "string", description: "What to repeat." },
          times: {
            type: "integer",
            default: 1,
            minimum: Number.MIN_SAFE_INTEGER,
            maximum: Number.MAX_SAFE_INTEGER,
          },
        },
        required: ["text"],
      },
    });
  });

  it("lists no properties and nothing required for a tool that takes no input", () => {
    expect(toToolSpec("now", "The time.", z.object({})).input_schema).toMatchObject({
      type: "object",
      properties: {},
      required: [],
    });
  });

  it("refuses an input that is not an object, naming the tool", () => {
    expect(() => toToolSpec("scalar", "A string.", z.string())).toThrow(
      'Tool "scalar" must take an object input, got JSON schema type string',
    );
  });
});

import { describe, expect, it } from "vitest";
import * as z from "zod";
import { describeZodError } from "../../../src/protocol/wire/errors";

const Order = z.strictObject({
  items: z.array(z.object({ name: z.string().min(1, "name is empty"), qty: z.number().int() })),
  note: z.string().max(5, "note is too long").optional(),
});

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected the value to be invalid");
  return parsed.error;
}

describe("describeZodError", () => {
  it("names each problem by its dotted path, in one line", () => {
    const error = errorOf(Order, {
      items: [
        { name: "", qty: 1 },
        { name: "tea", qty: 1.5 },
      ],
      note: "longer",
    });
    expect(describeZodError(error)).toBe(
      "items.0.name: name is empty; items.1.qty: Invalid input: expected int, received number; note: note is too long",
    );
  });

  it("gives a problem with the whole value as its message alone", () => {
    expect(describeZodError(errorOf(Order, "tea"))).toBe("Invalid input: expected object, received string");
    expect(describeZodError(errorOf(Order, { items: [], rush: true }))).toBe('Unrecognized key: "rush"');
  });

  it("lists at most maxIssues problems and counts the rest", () => {
    const items = Array.from({ length: 5 }, () => ({ name: "", qty: 1 }));
    expect(describeZodError(errorOf(Order, { items }), { maxIssues: 2 })).toBe(
      "items.0.name: name is empty; items.1.name: name is empty; and 3 more",
    );
    expect(describeZodError(errorOf(Order, { items }), { maxIssues: 5 })).not.toContain("more");
  });
});

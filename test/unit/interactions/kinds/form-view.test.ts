import { describe, expect, it } from "vitest";
import {
  fieldValue,
  formOf,
  formSummary,
  toLocalDateTime,
} from "../../../../src/interactions/kinds/form-view";

const request = {
  message: "Details",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string" },
      email: { type: "string", title: "Email", format: "email" },
      when: { type: "string", format: "date-time" },
      count: { type: "integer" },
      ok: { type: "boolean" },
      size: { type: "string", enum: ["S", "M"] },
      city: { type: "string", enum: ["a", "b", "c", "d", "e", "f"] },
      plan: { type: "string", oneOf: [{ const: "p", title: "Pro" }] },
      tier: { type: "string", enum: ["t"], enumNames: ["Top"] },
      tags: { type: "array", items: { anyOf: [{ const: "x", title: "Ex" }] } },
    },
    required: ["email"],
  },
};

describe("the form card's view of a form", () => {
  const { fields, message } = formOf(request);

  it("labels fields by title or key and picks the input each type needs", () => {
    expect(message).toBe("Details");
    expect(fields.map((f) => [f.name, f.label, f.control, f.required])).toEqual([
      ["name", "name", "text", false],
      ["email", "Email", "email", true],
      ["when", "when", "datetime-local", false],
      ["count", "count", "number", false],
      ["ok", "ok", "checkbox", false],
      ["size", "size", "radios", false],
      ["city", "city", "select", false],
      ["plan", "plan", "radios", false],
      ["tier", "tier", "radios", false],
      ["tags", "tags", "checkboxes", false],
    ]);
    expect(fields.find((f) => f.name === "tier")?.options).toEqual([{ value: "t", label: "Top" }]);
  });

  it("reads numbers as numbers and leaves blanks blank", () => {
    const count = fields.find((f) => f.name === "count");
    const name = fields.find((f) => f.name === "name");
    if (!count || !name) throw new Error("fields missing");
    expect(fieldValue(count, "12")).toBe(12);
    expect(fieldValue(count, " ")).toBe("");
    expect(fieldValue(name, "12")).toBe("12");
  });

  it("shows an RFC 3339 time in a date-and-time input", () => {
    expect(toLocalDateTime("2026-12-01T09:30:00Z")).toBe("2026-12-01T09:30");
    expect(toLocalDateTime("soon")).toBe("");
  });

  it("summarises submitted values with option titles, in the form's order", () => {
    expect(formSummary(fields, { tags: ["x"], ok: false, plan: "p", email: "a@b.co" })).toEqual([
      { label: "Email", value: "a@b.co" },
      { label: "ok", value: "No" },
      { label: "plan", value: "Pro" },
      { label: "tags", value: "Ex" },
    ]);
  });
});

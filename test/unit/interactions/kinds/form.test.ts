import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";
import { DEMO_FORM } from "../../../../src/model/demo-script";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);

function form(properties: Record<string, unknown>, required?: string[]) {
  return {
    message: "A few details, please",
    requestedSchema: { type: "object", properties, ...(required ? { required } : {}) },
  };
}

function refusal(request: unknown): string {
  const opened = registry.open("form", request);
  if (opened.ok) throw new Error("expected the request to be refused");
  return opened.message;
}

const EVERY_FIELD = form(
  {
    name: { type: "string", title: "Name", minLength: 2, maxLength: 40, default: "Ada" },
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    age: { type: "integer", minimum: 0, maximum: 120 },
    budget: { type: "number", minimum: 0.5 },
    subscribe: { type: "boolean", default: true },
    size: { type: "string", enum: ["S", "M", "L"] },
    plan: {
      type: "string",
      oneOf: [
        { const: "free", title: "Free" },
        { const: "pro", title: "Pro" },
      ],
    },
    tier: { type: "string", enum: ["a", "b"], enumNames: ["Tier A", "Tier B"] },
    tags: { type: "array", items: { type: "string", enum: ["x", "y", "z"] }, minItems: 1, maxItems: 2 },
    langs: {
      type: "array",
      items: {
        anyOf: [
          { const: "en", title: "English" },
          { const: "fr", title: "French" },
        ],
      },
    },
  },
  ["name", "email", "age"],
);

describe("the form kind", () => {
  describe("requests (MCP ElicitRequestFormParams)", () => {
    it("accepts every primitive field type the spec allows, and the demo model's form", () => {
      expect(registry.open("form", EVERY_FIELD)).toMatchObject({ ok: true });
      expect(registry.open("form", DEMO_FORM)).toMatchObject({ ok: true });
    });

    it.each([
      ["a nested object", { type: "object", properties: {} }, "addr: nested objects are not supported"],
      ["a $ref", { $ref: "#/defs/x" }, "addr: $ref is not supported"],
      [
        "an array of objects",
        { type: "array", items: { type: "object" } },
        "addr: arrays of objects are not supported",
      ],
      ["an unknown type", { type: "null" }, "addr: type must be string, number, integer, boolean"],
      ["a keyword outside the spec", { type: "string", pattern: "^a" }, 'addr: "pattern" not supported'],
      ["an unknown format", { type: "string", format: "phone" }, "addr.format: format must be one of"],
      ["minLength above maxLength", { type: "string", minLength: 5, maxLength: 2 }, "minLength is greater"],
      ["minimum above maximum", { type: "number", minimum: 5, maximum: 2 }, "minimum is greater"],
      ["a default out of range", { type: "integer", maximum: 2, default: 3 }, "default is outside"],
      ["a default that is no option", { type: "string", enum: ["a"], default: "b" }, 'default "b"'],
      ["an option listed twice", { type: "string", enum: ["a", "a"] }, "an option is listed twice"],
      ["enumNames of the wrong length", { type: "string", enum: ["a", "b"], enumNames: ["A"] }, "enumNames"],
      ["an empty enum", { type: "string", enum: [] }, "give at least one option"],
      ["a non-string enum", { type: "string", enum: [1, 2] }, "addr.enum.0"],
      [
        "minItems above maxItems",
        { type: "array", items: { type: "string", enum: ["a"] }, minItems: 2, maxItems: 1 },
        "minItems",
      ],
      ["a boolean with a string default", { type: "boolean", default: "yes" }, "addr.default"],
    ])("refuses %s, naming the property", (_name, property, message) => {
      expect(refusal(form({ addr: property }))).toContain(message);
    });

    it("refuses a required name that is not a property, an empty message and a non-object schema", () => {
      expect(refusal(form({ a: { type: "string" } }, ["b"]))).toContain('"b" is not a property');
      expect(refusal({ ...form({}), message: " " })).toContain("message must not be empty");
      expect(refusal({ message: "x", requestedSchema: { type: "array" } })).toContain("requestedSchema.type");
    });

    it("refuses more than twenty fields", () => {
      const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, { type: "boolean" }]));
      expect(refusal(form(many))).toContain("at most 20 fields");
    });

    it("offers RequestUserInput to the model with a schema it can read", () => {
      const spec = registry.toolSpecs().find((tool) => tool.name === "RequestUserInput");
      expect(spec?.input_schema).toMatchObject({ type: "object", required: ["message", "requestedSchema"] });
      expect(spec?.description).toMatch(/flat JSON Schema/);
      expect(registry.byToolName("RequestUserInput")?.kind).toBe("form");
    });
  });

  describe("responses (MCP ElicitResult)", () => {
    const opened = registry.open("form", EVERY_FIELD);
    if (!opened.ok) throw new Error(opened.message);
    const request = opened.request;
    const valid = { name: "Ada", email: "ada@example.com", age: 36 };
    const respond = (raw: unknown) => registry.respond("form", request, raw);
    const refusedFields = (content: Record<string, unknown>) => {
      const result = respond({ action: "accept", content });
      if (result.ok) throw new Error("expected a refusal");
      return result;
    };

    it("accepts valid values, keeps only what was filled in and inserts no defaults", () => {
      const result = respond({ action: "accept", content: { ...valid, site: "", tags: ["x"] } });
      expect(result).toMatchObject({ ok: true, outcome: "answered" });
      if (!result.ok) return;
      expect(result.response).toEqual({ action: "accept", content: { ...valid, tags: ["x"] } });
      expect(result.result?.content).toBe(
        'User accepted the form and submitted: {"name":"Ada","email":"ada@example.com","age":36,"tags":["x"]}',
      );
    });

    it.each([
      ["age", 121, "age: must be at most 120"],
      ["age", -1, "age: must be at least 0"],
      ["age", 3.5, "age: must be a whole number"],
      ["age", "36", "age: must be a number"],
      ["budget", 0.1, "budget: must be at least 0.5"],
      ["name", "A", "name: must be at least 2 characters"],
      ["name", "A".repeat(41), "name: must be at most 40 characters"],
      ["email", "not-an-email", "email: must be an email address"],
      ["site", "example dot com", "site: must be a URI such as https://example.com"],
      ["day", "2026-13-01", "day: must be a date like 2026-11-23"],
      ["at", "tomorrow at noon", "at: must be a date and time like 2026-11-23T14:30"],
      ["subscribe", "yes", "subscribe: must be true or false"],
      ["size", "XL", 'size: must be one of "S", "M", "L"'],
      ["plan", "Pro", 'plan: must be one of "free", "pro"'],
      ["tier", "Tier A", 'tier: must be one of "a", "b"'],
      ["tags", ["x", "q"], 'tags: "q" is not one of the options'],
      ["tags", [], "tags: choose at least 1 option"],
      ["tags", ["x", "y", "z"], "tags: choose at most 2 options"],
      ["tags", ["x", "x"], "tags: lists an option twice"],
      ["langs", "en", "langs: must be a list of options"],
      ["colour", "red", "colour: is not a field of this form"],
    ])("refuses %s = %j: %s", (field, value, message) => {
      const result = refusedFields({ ...valid, [field]: value });
      expect(result.message).toBe(message);
      expect(result.fields).toEqual({ [field]: message.slice(field.length + 2) });
    });

    it.each([
      ["day", "2026-02-28", true],
      ["day", "2026-02-30", false],
      ["at", "2026-11-23T14:30", true],
      ["at", "2026-11-23T14:30:05.5Z", true],
      ["at", "2026-11-23T14:30+05:30", true],
      ["at", "2026-11-23T24:00", false],
      ["at", "2026-11-23 14:30", false],
      ["email", "ada@example.com", true],
      ["email", "ada@example", false],
      ["site", "https://example.com/a?b=c", true],
      ["site", "mailto:ada@example.com", true],
      ["site", "/relative/path", false],
    ])("checks the %s format: %j is %s", (field, value, ok) => {
      expect(respond({ action: "accept", content: { ...valid, [field]: value } }).ok).toBe(ok);
    });

    it("names every bad field at once, including missing required ones", () => {
      const result = refusedFields({ name: "", age: 500, extra: 1 });
      expect(result.message).toBe(
        "name: is required; email: is required; age: must be at most 120; extra: is not a field of this form",
      );
    });

    it.each([
      [{ action: "accept" }, "content: accept needs content"],
      [{ action: "decline", content: { name: "Ada" } }, 'Unrecognized key: "content"'],
      [{ action: "ok" }, 'action must be "accept", "decline" or "cancel"'],
      ["accept", 'action must be "accept", "decline" or "cancel"'],
    ])("refuses a malformed result %j", (raw, message) => {
      const result = respond(raw);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain(message);
    });

    it("words decline, dismissal, timeout and a cancelled turn for the model", () => {
      expect(respond({ action: "decline" })).toMatchObject({
        outcome: "denied",
        result: { content: "User declined the form and provided no information.", isError: false },
      });
      expect(respond({ action: "cancel" })).toMatchObject({
        outcome: "cancelled",
        result: { content: "User dismissed the form without answering.", isError: false },
      });
      expect(registry.timeout("form", request, { timeoutMs: 600_000 })).toEqual({
        content: "User did not respond to the form within 10 minutes",
        isError: true,
      });
      expect(registry.cancelled("form", request).content).toBe(
        "User cancelled the turn before answering the form",
      );
    });
  });
});

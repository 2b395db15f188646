import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";

/** Every `anyOf` list anywhere in a JSON Schema. */
function anyOfLists(node: unknown): unknown[][] {
  if (typeof node !== "object" || node === null) return [];
  const own = Array.isArray((node as { anyOf?: unknown }).anyOf)
    ? [(node as { anyOf: unknown[] }).anyOf]
    : [];
  return [...own, ...Object.values(node).flatMap(anyOfLists)];
}

describe("the form tool the model sees", () => {
  it("describes each form field as one of the spec's primitive shapes", () => {
    const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);
    const formTools = registry.toolSpecs().filter((spec) => JSON.stringify(spec).includes("requestedSchema"));
    expect(formTools.length).toBeGreaterThan(0);
    for (const spec of formTools) {
      const shapes = anyOfLists(spec.input_schema).find((list) =>
        list.some(
          (shape) =>
            (shape as { properties?: { type?: { const?: string } } }).properties?.type?.const === "boolean",
        ),
      );
      expect(shapes).toHaveLength(7);
    }
  });

  it("gives the same description every time it is asked", () => {
    const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);
    expect(registry.toolSpecs()).toEqual(registry.toolSpecs());
  });
});

import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { BUILTIN_KIND_NAMES } from "../../../../src/interactions/kinds/names";

describe("the built-in kinds' names", () => {
  it("are the names of the built-in kinds, in the order their tools are offered", () => {
    expect(BUILTIN_KIND_NAMES).toEqual(BUILTIN_INTERACTIONS.map((kind) => kind.kind));
  });
});

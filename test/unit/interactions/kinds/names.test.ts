import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import {
  BATCHED_KIND_NAMES,
  BUILTIN_KIND_NAMES,
  PERMISSION_GATE_KIND,
} from "../../../../src/interactions/kinds/names";

describe("the built-in kinds' names", () => {
  it("are the names of the built-in kinds, in the order their tools are offered", () => {
    expect(BUILTIN_KIND_NAMES).toEqual(BUILTIN_INTERACTIONS.map((kind) => kind.kind));
  });

  it("name as batched exactly the kinds that say what a batch decision stands for", () => {
    const batched = BUILTIN_INTERACTIONS.filter((kind) => kind.batchResponse !== undefined);
    expect(BATCHED_KIND_NAMES).toEqual(batched.map((kind) => kind.kind));
  });

  it("name as the permission gate a built-in kind with no tool of its own, whose answers may edit the input", () => {
    const gate = BUILTIN_INTERACTIONS.find((kind) => kind.kind === PERMISSION_GATE_KIND);
    expect(gate?.toolName).toBeUndefined();
    expect(gate?.editedInput).toBeDefined();
  });
});

import { describe, expect, it } from "vitest";
import { ClientCommand, COMMAND_TYPES } from "../../../src/protocol/wire/commands";

describe("the command types", () => {
  it("name every command the client command schema accepts, in its order, and no other", () => {
    expect([...COMMAND_TYPES]).toEqual(ClientCommand.options.map((option) => option.shape.type.value));
  });
});

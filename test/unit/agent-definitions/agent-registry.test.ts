import { describe, expect, it } from "vitest";
import { AgentDefinitionError } from "../../../src/agent-definitions/agent-definition";
import { createAgentRegistry, lazyAgentRegistry } from "../../../src/agent-definitions/agent-registry";

const helper = { file: "agents/helper.md", source: "---\nname: helper\ndescription: Helps.\n---\nYou help." };
const broken = { file: "agents/broken.md", source: "---\nname: Broken!\ndescription: x\n---\nBody." };

describe("a registry read on first use", () => {
  it("finds the same agents as one built at once", () => {
    const lazy = lazyAgentRegistry(() => createAgentRegistry([helper], []));
    expect(lazy.all()).toEqual(createAgentRegistry([helper], []).all());
    expect(lazy.get("helper")?.systemPrompt).toBe("You help.");
  });

  it("parses the files once, however often it is read", () => {
    let builds = 0;
    const lazy = lazyAgentRegistry(() => {
      builds += 1;
      return createAgentRegistry([helper], []);
    });
    expect(builds).toBe(0);
    lazy.get("helper");
    lazy.all();
    expect(builds).toBe(1);
  });

  it("reports a bad file, by name and field, when first read", () => {
    const lazy = lazyAgentRegistry(() => createAgentRegistry([broken], []));
    expect(() => lazy.all()).toThrow(AgentDefinitionError);
    expect(() => lazy.get("x")).toThrow(/agents\/broken\.md: field "name"/);
  });
});

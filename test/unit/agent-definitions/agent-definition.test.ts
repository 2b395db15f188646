import { describe, expect, it } from "vitest";
import { parseAgentDefinition } from "../../../src/agent-definitions/agent-definition";
import { createAgentRegistry } from "../../../src/agent-definitions/agent-registry";
import { BUNDLED_AGENT_FILES } from "../../../src/agent-definitions/bundled-agents";

const file = (frontmatter: string, body = "You help.") => `---\n${frontmatter}\n---\n${body}\n`;

describe("an agent definition file", () => {
  it("reads name, description, tools, model and cap from the frontmatter and the body as the prompt", () => {
    const agent = parseAgentDefinition(
      "agents/a.md",
      file(
        "name: a\ndescription: Does A.\ntools: Read, notes_write\nmodel: claude-x\nmaxIterations: 3",
        "Be A.\n\nAlways.",
      ),
    );
    expect(agent).toEqual({
      name: "a",
      description: "Does A.",
      tools: ["Read", "notes_write"],
      model: "claude-x",
      maxIterations: 3,
      systemPrompt: "Be A.\n\nAlways.",
      file: "agents/a.md",
    });
  });

  it("gives every tool and the default cap when the file leaves them out", () => {
    const agent = parseAgentDefinition("agents/a.md", file("name: a\ndescription: Does A."));
    expect(agent).toMatchObject({ tools: null, model: null, maxIterations: 25 });
  });

  it.each([
    ["no frontmatter", "You help.", /^agents\/bad\.md: must start with YAML frontmatter/],
    ["broken YAML", file("name: [a\ndescription: x"), /^agents\/bad\.md: invalid YAML frontmatter/],
    [
      "a bad name",
      file("name: Bad Name\ndescription: x"),
      /^agents\/bad\.md: field "name": must be lowercase/,
    ],
    [
      "the main agent's name",
      file("name: main\ndescription: x"),
      /^agents\/bad\.md: field "name": "main" is the main agent's name/,
    ],
    ["no description", file("name: a"), /^agents\/bad\.md: field "description": /],
    [
      "a cap that is not a number",
      file("name: a\ndescription: x\nmaxIterations: lots"),
      /field "maxIterations"/,
    ],
    ["a misspelt field", file("name: a\ndescription: x\nmaxIteration: 3"), /field "maxIteration": /],
    ["an empty body", file("name: a\ndescription: x", ""), /the body \(the agent's system prompt\) is empty/],
  ])("is refused with the file and field named when it has %s", (_case, source, message) => {
    expect(() => parseAgentDefinition("agents/bad.md", source)).toThrow(message);
  });
});

describe("the agent registry", () => {
  it("refuses a duplicate name, naming both files", () => {
    const a = { file: "agents/a.md", source: file("name: a\ndescription: x") };
    const b = { file: "agents/b.md", source: file("name: a\ndescription: y") };
    expect(() => createAgentRegistry([a, b], [])).toThrow(
      'agents/b.md: field "name": "a" is already defined in agents/a.md',
    );
  });

  it("refuses an unknown tool but accepts MCP tools, Agent and complete", () => {
    const ok = {
      file: "agents/a.md",
      source: file("name: a\ndescription: x\ntools: [notes_read, Agent, complete, mcp__srv__x]"),
    };
    expect(createAgentRegistry([ok], ["notes_read"]).get("a")?.tools).toEqual([
      "notes_read",
      "Agent",
      "complete",
      "mcp__srv__x",
    ]);
    const bad = { file: "agents/a.md", source: file("name: a\ndescription: x\ntools: [notes_raed]") };
    expect(() => createAgentRegistry([bad], ["notes_read"])).toThrow(
      /^agents\/a\.md: field "tools": unknown tool "notes_raed"/,
    );
  });

  it("accepts the agents shipped in agents/", () => {
    const registry = createAgentRegistry(BUNDLED_AGENT_FILES, [
      "current_time",
      "notes_read",
      "notes_write",
      "fetch_url",
      "AskUserQuestion",
    ]);
    expect(registry.all().map((agent) => agent.name)).toEqual(["researcher", "note-keeper"]);
  });
});

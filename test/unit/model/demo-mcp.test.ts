import { describe, expect, it } from "vitest";
import { mcpTour } from "../../../src/model/demo-mcp";
import type { ModelRequest } from "../../../src/model/model-client";

const request = (names: string[]): ModelRequest =>
  ({
    model: "demo",
    max_tokens: 100,
    messages: [],
    tools: names.map((name) => ({ name, description: "", input_schema: { type: "object" } })),
  }) as unknown as ModelRequest;

describe("the demo model's MCP tour", () => {
  it("starts only when the message mentions MCP", () => {
    expect(mcpTour(request(["mcp__everything__echo"]), "hello there")).toBeNull();
  });

  it("calls a tool that asks for a form when the session has one", () => {
    const reply = mcpTour(
      request(["notes_read", "mcp__everything__echo", "mcp__everything__trigger-elicitation-request"]),
      "show me MCP",
    );
    expect(reply?.content.at(-1)).toMatchObject({
      type: "tool_use",
      name: "mcp__everything__trigger-elicitation-request",
      input: {},
    });
  });

  it("says how to configure a server when the session has no MCP tools", () => {
    const reply = mcpTour(request(["notes_read"]), "mcp please");
    expect(reply?.content).toEqual([{ type: "text", text: expect.stringContaining("MCP_SERVERS") }]);
  });
});

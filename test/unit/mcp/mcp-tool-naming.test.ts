import { describe, expect, it } from "vitest";
import type { ListedTool } from "../../../src/mcp/mcp-state";
import { mcpToolName, mcpToolRisk } from "../../../src/mcp/mcp-tool-naming";

const tool = (annotations?: ListedTool["annotations"]): ListedTool => ({
  name: "t",
  inputSchema: { type: "object" },
  ...(annotations ? { annotations } : {}),
});

describe("MCP tool names", () => {
  it("are mcp__<server>__<tool>, with characters the Messages API refuses replaced", () => {
    expect(mcpToolName("everything", "get-sum")).toBe("mcp__everything__get-sum");
    expect(mcpToolName("github", "repos.list/all")).toBe("mcp__github__repos_list_all");
  });

  it("are refused past 64 characters rather than cut into a name that could collide", () => {
    expect(mcpToolName("server", "x".repeat(51))).toHaveLength(64);
    expect(mcpToolName("server", "x".repeat(52))).toBeNull();
  });
});

describe("MCP tool risk", () => {
  it("comes from the annotations: read-only reads, destructive executes, anything else reaches the network", () => {
    expect(mcpToolRisk(tool({ readOnlyHint: true }), undefined)).toEqual({ risk: "read", idempotent: true });
    expect(mcpToolRisk(tool({ destructiveHint: true }), undefined)).toEqual({
      risk: "execute",
      idempotent: false,
    });
    expect(mcpToolRisk(tool({ idempotentHint: true }), undefined)).toEqual({
      risk: "network",
      idempotent: true,
    });
    expect(mcpToolRisk(tool(), undefined)).toEqual({ risk: "network", idempotent: false });
  });

  it("is overridden by the deployment, field by field", () => {
    expect(mcpToolRisk(tool({ readOnlyHint: true }), { risk: "execute" })).toEqual({
      risk: "execute",
      idempotent: true,
    });
    expect(mcpToolRisk(tool({ destructiveHint: true }), { idempotent: true })).toEqual({
      risk: "execute",
      idempotent: true,
    });
  });
});

import { describe, expect, it } from "vitest";
import type { ListedTool } from "../../../src/mcp/mcp-state";
import { mcpToolName, mcpToolRisk, pinRiskHints } from "../../../src/mcp/mcp-tool-naming";

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
  it("comes from the annotations of a trusted server: read-only reads, destructive executes, anything else reaches the network", () => {
    expect(mcpToolRisk(tool({ readOnlyHint: true }), undefined, true)).toEqual({
      risk: "read",
      idempotent: true,
    });
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

  it("never reads as read-only on a server's word alone: an untrusted readOnlyHint still asks", () => {
    expect(mcpToolRisk(tool({ readOnlyHint: true }), undefined).risk).toBe("network");
    expect(mcpToolRisk(tool({ readOnlyHint: true }), undefined, false).risk).toBe("network");
    // The deployment can still mark it read.
    expect(mcpToolRisk(tool({ readOnlyHint: true }), { risk: "read" }).risk).toBe("read");
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

describe("pinned risk hints", () => {
  const named = (name: string, annotations?: ListedTool["annotations"]): ListedTool => ({
    ...tool(annotations),
    name,
  });

  it("keeps a tool's first hints when a later listing loosens them", () => {
    const first = [named("wipe", { destructiveHint: true }), named("ask")];
    const later = [
      named("wipe", { readOnlyHint: true, title: "Wipe" }),
      named("ask", { readOnlyHint: true }),
    ];
    const pinned = pinRiskHints(first, later);
    expect(pinned[0]?.annotations).toEqual({ title: "Wipe", destructiveHint: true });
    expect(mcpToolRisk(pinned[0] as ListedTool, undefined, true).risk).toBe("execute");
    expect(mcpToolRisk(pinned[1] as ListedTool, undefined, true).risk).toBe("network");
  });

  it("takes stricter hints at once, and new tools as listed", () => {
    const first = [named("read", { readOnlyHint: true })];
    const later = [named("read", { destructiveHint: true }), named("new", { readOnlyHint: true })];
    expect(pinRiskHints(first, later)).toEqual(later);
    expect(pinRiskHints(null, later)).toBe(later);
  });
});

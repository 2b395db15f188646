import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../helpers/session-harness";
import { mcpSession } from "./mcp-fixtures";

const dropTable = (server: string, id: string) =>
  toolReply([{ name: `mcp__${server}__drop-table`, id, input: { table: "users" } }]);

describe("an MCP server's own readOnlyHint", () => {
  it("does not let a server that lies about it run its tool unasked", async () => {
    const { device } = await mcpSession(
      ["untrusted"],
      [dropTable("untrusted", "toolu_lie"), textReply("Asked first.")],
    );
    await device.request({ type: "send_message", text: "clean up" });
    const approval = await device.waitForEvent("approval_required");
    expect(approval.data.toolCallId).toBe("toolu_lie");
    expect(approval.data.request).toMatchObject({ toolName: "mcp__untrusted__drop-table", risk: "network" });
    // Nothing ran while the card waits.
    expect(device.event("tool_result")).toBeUndefined();
    await device.request({ type: "deny", toolCallId: "toolu_lie", reason: "no" });
    await device.waitForDone();
    expect(device.event("tool_result")?.data.isError).toBe(true);
    device.close();
  });

  it("spares the approval only where the deployment trusts that server's annotations", async () => {
    const { device } = await mcpSession(["mrtr"], [dropTable("mrtr", "toolu_trusted"), textReply("Ran.")]);
    await device.request({ type: "send_message", text: "clean up" });
    await device.waitForDone();
    expect(device.event("approval_required")).toBeUndefined();
    expect(device.event("tool_result")?.data.content).toBe("dropped users");
    device.close();
  });
});

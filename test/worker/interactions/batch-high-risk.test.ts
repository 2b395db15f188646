// "Approve all" never approves a call Parley assessed as high risk: a batch that names one is
// refused whole and decides nothing, while "Deny all" still may deny it and the other cards can
// be approved together without it.
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../helpers/session-harness";
import { mcpSession } from "../mcp/mcp-fixtures";

const calls = toolReply([
  { id: "b_deploy", name: "mcp__mrtr__confirm-deploy", input: { env: "production" } },
  { id: "b_note", name: "notes_write", input: { key: "todo", text: "milk" } },
  { id: "b_note2", name: "notes_write", input: { key: "later", text: "eggs" } },
]);

describe("Approve all and a high-risk call", () => {
  it("refuses a batch approval that names a high-risk card, and changes nothing", async () => {
    const { device } = await mcpSession(["mrtr"], [calls, textReply("Done.")]);
    await device.request({ type: "send_message", text: "deploy and note it" });
    await device.until(
      () => device.events.filter((event) => event.type === "approval_required").length === 3,
      "3 cards",
      // The MCP server's tools list is fetched on the turn's first step: a cold start takes seconds.
      30_000,
    );
    const deploy = device.event("approval_required", (event) => event.data.toolCallId === "b_deploy");
    expect(deploy?.data.request).toMatchObject({ assessment: { level: "high" } });

    const refused = await device.request({
      type: "decide_batch",
      toolCallIds: ["b_note", "b_deploy", "b_note2"],
      decision: "approve",
    });
    expect(refused).toMatchObject({ ok: false, error: { code: "invalid_answer" } });
    expect(JSON.stringify(refused)).toContain("high risk");
    expect(device.event("interaction_resolved")).toBeUndefined();

    // The other cards go through together; the high one is answered on its own.
    const approved = await device.request({
      type: "decide_batch",
      toolCallIds: ["b_note", "b_note2"],
      decision: "approve",
    });
    expect(approved).toMatchObject({ ok: true });
    const denied = await device.request({
      type: "decide_batch",
      toolCallIds: ["b_deploy"],
      decision: "deny",
    });
    expect(denied).toMatchObject({ ok: true });
    await device.waitForDone();
    const resolved = device.events.filter((event) => event.type === "interaction_resolved");
    expect(resolved.map((event) => [event.data.toolCallId, event.data.outcome]).sort()).toEqual([
      ["b_deploy", "denied"],
      ["b_note", "approved"],
      ["b_note2", "approved"],
    ]);
    device.close();
  });
});

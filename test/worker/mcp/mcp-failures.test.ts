// MCP servers that fail: down, hanging, killed mid-call, speaking broken JSON-RPC, restarted (a
// stale session), tool names that collide, results too large. Each becomes an error result or a
// visible note, and the session goes on.
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../helpers/session-harness";
import {
  eventsOf,
  lastMessage,
  modelRequests,
  tableRows,
  toolResultsOf,
} from "../interactions/interaction-fixtures";
import { control, mcpSession } from "./mcp-fixtures";

const LONG_RUN = "mcp__killable__trigger-long-running-operation";

async function resultOf(session: { sessionId: string }, call: number) {
  const requests = await modelRequests(session);
  return toolResultsOf(lastMessage(requests[call]))[0];
}

describe("MCP servers that fail", () => {
  it("leaves out a server that is down, says so on every device, and still answers", async () => {
    const { session, device } = await mcpSession(["down", "everything"], [textReply("Still here.")]);
    await device.request({ type: "send_message", text: "hi" });
    await device.waitForDone(1, 15_000);
    const note = eventsOf(device, "error").find((e) => e.data.code === "mcp_server");
    expect(note?.data.message).toMatch(
      /MCP server "down" is unavailable: .*unreachable|MCP server "down" is unavailable/,
    );
    const [request] = await modelRequests(session);
    const names = request?.tools?.map((tool) => tool.name) ?? [];
    expect(names.some((name) => name.startsWith("mcp__down__"))).toBe(false);
    expect(names).toContain("mcp__everything__echo");
    const [row] = await tableRows<{ error: string | null; tools: string | null }>(
      session,
      "SELECT error, tools FROM mcp_servers WHERE name = 'down'",
    );
    expect(row?.tools).toBeNull();
    expect(row?.error).toContain('MCP server "down"');
    device.close();
  });

  it("turns a tool call that hangs past the server's timeout into an error result", async () => {
    const { session, device } = await mcpSession(
      ["mrtr"],
      [toolReply([{ name: "mcp__mrtr__sleep", id: "toolu_sleep", input: {} }]), textReply("It timed out.")],
    );
    await device.request({ type: "send_message", text: "sleep" });
    await device.waitForDone(1, 15_000);
    expect(await resultOf(session, 1)).toEqual({
      toolUseId: "toolu_sleep",
      content: 'MCP server "mrtr" did not answer within 1.5 s.',
      isError: true,
    });
    device.close();
  });

  it("turns a response that is not JSON-RPC into an error result", async () => {
    const { session, device } = await mcpSession(
      ["garbage"],
      [
        toolReply([{ name: "mcp__garbage__get_time", id: "toolu_bad", input: {} }]),
        textReply("Broken server."),
      ],
    );
    await device.request({ type: "send_message", text: "time?" });
    await device.waitForDone(1, 15_000);
    const result = await resultOf(session, 1);
    expect(result?.isError).toBe(true);
    expect(String(result?.content)).toMatch(/^MCP server "garbage" /);
    expect(String(result?.content)).toMatch(/JSON/);
    device.close();
  });

  it("reports a server killed mid-call as an error result, then starts a new server session once it is back", async () => {
    const { session, device } = await mcpSession(
      ["killable"],
      [
        toolReply([{ name: LONG_RUN, id: "toolu_long", input: { duration: 10, steps: 10 } }]),
        textReply("The server went away."),
        toolReply([{ name: "mcp__killable__get-sum", id: "toolu_after", input: { a: 1, b: 2 } }]),
        textReply("It is back."),
      ],
    );
    await device.request({ type: "send_message", text: "run long" });
    // The server itself says the call is running (its stream is open) before it is killed.
    await control("GET", "/killable/running-call");
    const [before] = await tableRows<{ session_id: string }>(session, "SELECT session_id FROM mcp_servers");
    await control("POST", "/killable/kill");
    try {
      await device.waitForDone(1, 15_000);
      const result = await resultOf(session, 1);
      expect(result?.isError).toBe(true);
      expect(result?.content).toBe(
        'MCP server "killable" closed the connection before answering (it may have stopped).',
      );
    } finally {
      await control("POST", "/killable/start");
    }

    await device.request({ type: "send_message", text: "again" });
    await device.waitForDone(2, 15_000);
    expect(await resultOf(session, 3)).toEqual({
      toolUseId: "toolu_after",
      content: "The sum of 1 and 2 is 3.",
      isError: false,
    });
    const [after] = await tableRows<{ session_id: string }>(session, "SELECT session_id FROM mcp_servers");
    expect(after?.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(after?.session_id).not.toBe(before?.session_id);
    device.close();
  });

  it("offers one of two tools whose names collide and says which was left out", async () => {
    const { session, device } = await mcpSession(["mrtr"], [textReply("Hi.")]);
    await device.request({ type: "send_message", text: "hi" });
    await device.waitForDone(1, 15_000);
    const [request] = await modelRequests(session);
    const times = request?.tools?.filter((tool) => tool.name === "mcp__mrtr__get_time") ?? [];
    expect(times).toHaveLength(1);
    expect(times[0]?.description).toBe("Tells the time (get.time).");
    const note = eventsOf(device, "error").find((e) => e.data.code === "mcp_server");
    expect(note?.data.message).toBe(
      'MCP tool "get_time" of "mrtr" was left out: its name collides with mcp__mrtr__get_time.',
    );
    device.close();
  });

  it("truncates an oversized result and says so", async () => {
    const { session, device } = await mcpSession(
      ["mrtr"],
      [
        toolReply([{ name: "mcp__mrtr__big-output", id: "toolu_big", input: { size: 150_000 } }]),
        textReply("Long."),
      ],
    );
    await device.request({ type: "send_message", text: "echo a lot" });
    await device.waitForDone(1, 15_000);
    const result = eventsOf(device, "tool_result")[0];
    expect(result?.data.truncated).toBe(true);
    expect(result?.data.content.length).toBeLessThanOrEqual(100_000);
    expect(result?.data.content).toMatch(/\[output truncated: \d+ of 150000 characters shown\]$/);
    const model = await resultOf(session, 1);
    expect(String(model?.content)).toMatch(/^y+\n\n\[output truncated/);
    device.close();
  });
});

// MCP tools offered to the model: listing server-everything, naming, schemas and risk, the cached
// list in SQLite, selection per session, and approvals answered from a second device.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, textReply, toolReply } from "../../helpers/session-harness";
import {
  eventsOf,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  tableRows,
  toolResultsOf,
} from "../interactions/interaction-fixtures";
import { mcpSession } from "./mcp-fixtures";

const ECHO = "mcp__everything__echo";
const SUM = "mcp__everything__get-sum";

describe("MCP tools", () => {
  it("offers the tools server-everything lists, named mcp__<server>__<tool> with the server's own schema", async () => {
    const { session, device } = await mcpSession(["everything"], [textReply("Hello.")]);
    await device.request({ type: "send_message", text: "hi" });
    await device.waitForDone(1, 15_000);

    const [request] = await modelRequests(session);
    const names = request?.tools?.map((tool) => tool.name) ?? [];
    expect(names).toEqual(
      expect.arrayContaining([ECHO, SUM, "mcp__everything__get-tiny-image", "notes_read"]),
    );
    const echo = request?.tools?.find((tool) => tool.name === ECHO);
    expect(echo?.input_schema).toMatchObject({
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });
    const [cached] = await tableRows<{
      name: string;
      session_id: string;
      protocol_version: string;
      tools: string;
    }>(session, "SELECT name, session_id, protocol_version, tools FROM mcp_servers");
    expect(cached?.name).toBe("everything");
    expect(cached?.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(cached?.protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(JSON.parse(cached?.tools ?? "[]").map((tool: { name: string }) => tool.name)).toContain("echo");
  });

  it("runs echo after a second device approves, showing the server, tool, title and annotations on the card", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([{ name: ECHO, id: "toolu_echo", input: { message: "hello from Parley" } }]),
        textReply("Done."),
      ],
    );
    const phone = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "echo something" });
    const card = await phone.waitForEvent("approval_required", undefined, 15_000);
    expect(card.data.request).toMatchObject({
      toolName: ECHO,
      input: { message: "hello from Parley" },
      risk: "network",
      mcp: {
        server: "everything",
        tool: "echo",
        annotations: { readOnlyHint: true, idempotentHint: true },
        // The server's own words for each argument, which the card titles its rows with.
        fields: { message: "Message to echo" },
      },
    });

    const approved = await post(session, "approve", { toolCallId: "toolu_echo" }, "phone");
    expect(approved.status).toBe(200);
    await device.waitForDone(1, 15_000);
    const result = eventsOf(device, "tool_result")[0];
    expect(result?.data).toMatchObject({ name: ECHO, content: "Echo: hello from Parley", isError: false });
    const [, second] = await modelRequests(session);
    expect(toolResultsOf(lastMessage(second))).toEqual([
      { toolUseId: "toolu_echo", content: "Echo: hello from Parley", isError: false },
    ]);
    device.close();
    phone.close();
  });

  it("remembers 'always allow' per MCP tool: get-sum runs again without a card, echo still asks", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([{ name: SUM, id: "toolu_sum1", input: { a: 2, b: 3 } }]),
        toolReply([
          { name: SUM, id: "toolu_sum2", input: { a: 40, b: 2 } },
          { name: ECHO, id: "toolu_echo2", input: { message: "still asks" } },
        ]),
        textReply("Done."),
      ],
    );
    const phone = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "add" });
    await phone.waitForEvent("approval_required", (e) => e.data.toolCallId === "toolu_sum1", 15_000);
    expect(
      (await post(session, "approve", { toolCallId: "toolu_sum1", remember: true }, "phone")).status,
    ).toBe(200);
    await device.waitForEvent("approval_required", (e) => e.data.toolCallId === "toolu_echo2", 15_000);
    await device.waitForEvent("tool_result", (e) => e.data.toolCallId === "toolu_sum2", 15_000);
    expect(eventsOf(device, "approval_required").map((e) => e.data.toolCallId)).toEqual([
      "toolu_sum1",
      "toolu_echo2",
    ]);
    const sums = eventsOf(device, "tool_result").filter((e) => e.data.name === SUM);
    expect(sums.map((e) => e.data.content)).toEqual([
      "The sum of 2 and 3 is 5.",
      "The sum of 40 and 2 is 42.",
    ]);
    expect((await post(session, "deny", { toolCallId: "toolu_echo2" }, "phone")).status).toBe(200);
    await device.waitForDone(1, 15_000);
    device.close();
    phone.close();
  });

  it("runs a tool annotated read-only without asking, and shows its structured content to the model", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([
          {
            name: "mcp__everything__get-structured-content",
            id: "toolu_weather",
            input: { location: "New York" },
          },
        ]),
        textReply("Done."),
      ],
    );
    await device.request({ type: "send_message", text: "weather?" });
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "approval_required")).toEqual([]);
    const [, second] = await modelRequests(session);
    const [result] = toolResultsOf(lastMessage(second));
    expect(result?.isError).toBe(false);
    expect(JSON.parse(String(result?.content))).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
    device.close();
  });

  it("shows the model a small image a tool returns, as an image block after the text", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([{ name: "mcp__everything__get-tiny-image", id: "toolu_tiny", input: {} }]),
        textReply("Seen."),
      ],
    );
    await device.request({ type: "send_message", text: "picture" });
    await device.waitForDone(1, 15_000);
    const [, second] = await modelRequests(session);
    const block = lastMessage(second).content;
    const result = Array.isArray(block) ? block.find((b) => b.type === "tool_result") : undefined;
    const content = result?.type === "tool_result" && Array.isArray(result.content) ? result.content : [];
    expect(content[0]).toMatchObject({ type: "text", text: expect.stringContaining("[image 1: image/png") });
    expect(content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
    expect(eventsOf(device, "tool_result")[0]?.data.content).toContain("— shown below]");
    device.close();
  });

  it("picks up the same server session after eviction, from the Mcp-Session-Id kept in SQLite", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([{ name: "mcp__everything__get-tiny-image", id: "toolu_img", input: {} }]),
        textReply("One."),
        toolReply([
          {
            name: "mcp__everything__get-annotated-message",
            id: "toolu_msg",
            input: { messageType: "success" },
          },
        ]),
        textReply("Two."),
      ],
    );
    await device.request({ type: "send_message", text: "one" });
    await device.waitForDone(1, 15_000);
    const [before] = await tableRows<{ session_id: string }>(session, "SELECT session_id FROM mcp_servers");
    device.close();

    await evictDurableObject(stubOf(session), { webSockets: "hibernate" });
    const again = await connect(session, { device: "laptop" });
    await again.request({ type: "send_message", text: "two" });
    await again.waitForDone(2, 15_000);
    const [after] = await tableRows<{ session_id: string }>(session, "SELECT session_id FROM mcp_servers");
    expect(after?.session_id).toBe(before?.session_id);
    const results = eventsOf(again, "tool_result");
    expect(results.at(-1)?.data).toMatchObject({ toolCallId: "toolu_msg", isError: false });
    expect(results.at(-1)?.data.content).toContain("Operation completed successfully");
    again.close();
  });

  it("lists the tools again when a call finds its tool gone from the server", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [
        textReply("Listed."),
        toolReply([{ name: "mcp__everything__vanished", id: "toolu_gone", input: {} }]),
        textReply("It was gone."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    await device.request({ type: "send_message", text: "list" });
    await device.waitForDone(1, 15_000);
    // The cached list still names a tool the server no longer has (it was removed since).
    const cached = await tableRows<{ tools: string }>(session, "SELECT tools FROM mcp_servers");
    const tools = [
      ...JSON.parse(cached[0]?.tools ?? "[]"),
      { name: "vanished", inputSchema: { type: "object" } },
    ];
    await runInDurableObject(stubOf(session), (_instance, state) => {
      state.storage.sql.exec("UPDATE mcp_servers SET tools = ?", JSON.stringify(tools));
    });
    device.close();
    await evictDurableObject(stubOf(session), { webSockets: "hibernate" });

    const again = await connect(session, { device: "laptop" });
    await again.request({ type: "send_message", text: "call it" });
    await again.waitForDone(2, 15_000);
    // The instance after eviction saw two model calls: with the stale list, then after the result.
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.tools?.some((tool) => tool.name === "mcp__everything__vanished")).toBe(true);
    const [result] = toolResultsOf(lastMessage(requests[1]));
    expect(result).toEqual({
      toolUseId: "toolu_gone",
      content: "MCP error -32602: Tool vanished not found",
      isError: true,
    });
    expect(requests[1]?.tools?.some((tool) => tool.name === "mcp__everything__vanished")).toBe(false);
    again.close();
  });

  it("checks arguments against the server's schema before asking anyone to approve them", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [toolReply([{ name: ECHO, id: "toolu_bad_args", input: { text: "no message" } }]), textReply("Oops.")],
    );
    await device.request({ type: "send_message", text: "echo" });
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "approval_required")).toEqual([]);
    const [, second] = await modelRequests(session);
    const [result] = toolResultsOf(lastMessage(second));
    expect(result?.isError).toBe(true);
    expect(String(result?.content)).toMatch(/^Invalid input for tool "mcp__everything__echo": .*message/);
    device.close();
  });

  it("refuses an unknown MCP server name when a session is created", async () => {
    const response = await api("POST", "/api/sessions", { body: { mcpServers: ["everything", "nope"] } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_input");
    expect(body.error.message).toContain('unknown MCP server "nope"');
    expect(body.error.message).toContain("everything");
  });

  it("offers no MCP tools to a session that selected none", async () => {
    const { session, device } = await mcpSession([], [textReply("Hello.")]);
    await device.request({ type: "send_message", text: "hi" });
    await device.waitForDone();
    const [request] = await modelRequests(session);
    expect(request?.tools?.some((tool) => tool.name.startsWith("mcp__"))).toBe(false);
    expect(await tableRows(session, "SELECT * FROM mcp_servers")).toEqual([]);
  });
});

// A server's tool list that changes while a session uses it: the cached list is read again before
// the next model request, so the model is offered the tools the server has now.
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../helpers/session-harness";
import { eventsOf, modelRequests } from "../interactions/interaction-fixtures";
import { control, mcpSession } from "./mcp-fixtures";

const ADD = "mcp__changing__add-tool";
const FRESH = "mcp__changing__fresh-tool";

describe("a changing MCP tool list", () => {
  it("offers a tool the server added during a call in the very next model request, and runs it", async () => {
    await control("POST", "/changing/reset");
    const { session, device } = await mcpSession(
      ["changing"],
      [
        toolReply([{ name: ADD, id: "toolu_add", input: {} }]),
        toolReply([{ name: FRESH, id: "toolu_fresh", input: {} }]),
        textReply("Done."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    await device.request({ type: "send_message", text: "add a tool and use it" });
    await device.waitForDone(1, 15_000);

    const offered = (await modelRequests(session)).map((request) =>
      (request.tools ?? [])
        .map((tool) => tool.name)
        .filter((name) => name.startsWith("mcp__"))
        .sort(),
    );
    expect(offered).toEqual([[ADD], [ADD, FRESH], [ADD, FRESH]]);
    expect(
      eventsOf(device, "tool_result").map((e) => [e.data.toolCallId, e.data.isError, e.data.content]),
    ).toEqual([
      ["toolu_add", false, "fresh-tool added"],
      ["toolu_fresh", false, "fresh-tool ran"],
    ]);
    device.close();
  });
});

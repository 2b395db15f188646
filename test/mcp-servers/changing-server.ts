// An MCP server (official server SDK) whose tool list changes: `add-tool` makes `fresh-tool` appear
// and announces it with `notifications/tools/list_changed`, for the tests of cached tool lists.
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

export function createChangingHandler() {
  let added = false;
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "changing-test", version: "1.0.0" });
    const registerFresh = () =>
      server.registerTool(
        "fresh-tool",
        {
          description: "Appears once add-tool ran.",
          inputSchema: z.object({}),
          annotations: { readOnlyHint: true },
        },
        async () => ({ content: [{ type: "text", text: "fresh-tool ran" }] }),
      );
    if (added) registerFresh();
    server.registerTool(
      "add-tool",
      { description: "Adds fresh-tool to this server's tools.", inputSchema: z.object({}) },
      async () => {
        if (!added) {
          added = true;
          registerFresh(); // the SDK sends list_changed on this connection when it can
          handler.notify.toolsChanged(); // and to every open subscription
        }
        return { content: [{ type: "text", text: "fresh-tool added" }] };
      },
    );
    return server;
  });
  return { handler, reset: () => (added = false) };
}

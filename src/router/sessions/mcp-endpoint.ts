// The remote permission prompt at /api/sessions/:id/mcp: the same `approve` tool as `parley mcp`,
// served statelessly over Streamable HTTP by the MCP server SDK, for agents that cannot run a local
// process. Loaded on the route's first use, so other requests never evaluate the SDK.
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { APPROVE_TOOL, approveTool, decisionResult } from "../../bridge/approve-tool";
import { askRemotely, type RemoteSession } from "./mcp-remote-ask";

/** An SSE comment this often keeps a long wait's response alive through proxies (Cloudflare's 100 s). */
const KEEP_ALIVE_MS = 15_000;

/** Serves one MCP request for the session `session` reaches. */
export function serveMcp(request: Request, session: RemoteSession): Promise<Response> {
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: "parley", version: "1.0.0" });
      server.registerTool(APPROVE_TOOL, approveTool, async (args, ctx) => {
        const answer = await askRemotely(session, args, { signal: ctx.mcpReq.signal });
        if ("decision" in answer) return decisionResult(answer.decision);
        return { content: [{ type: "text", text: answer.error }], isError: true };
      });
      return server;
    },
    {
      // The answer may take minutes: stream from the start, so keep-alives flow while it waits.
      responseMode: "sse",
      keepAliveMs: KEEP_ALIVE_MS,
      onerror: (error) => console.warn("Parley MCP endpoint:", error.message),
    },
  );
  return handler.fetch(request);
}

// A 2026-07-28 MCP server built with the official server SDK, for tests: a tool that asks for input
// with `input_required` (multi round-trip), a tool that never answers, and two names that collide.

import type { CallToolResult } from "@modelcontextprotocol/server";
import {
  acceptedContent,
  createMcpHandler,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  McpServer,
} from "@modelcontextprotocol/server";
import * as z from "zod";

/** One `tools/call` of `confirm-deploy` as the server received it. */
export interface RecordedCall {
  arguments: unknown;
  inputResponses: unknown;
  requestState: string | null;
}

export function createMrtrHandler(calls: RecordedCall[]) {
  return createMcpHandler(() => {
    const server = new McpServer({ name: "mrtr-test", version: "1.0.0" });
    server.registerTool(
      "confirm-deploy",
      {
        title: "Deploy after confirmation",
        description: "Deploys to an environment once a person confirms and picks a window.",
        inputSchema: z.object({ env: z.string() }),
        annotations: { destructiveHint: true },
      },
      async ({ env }, ctx): Promise<CallToolResult | InputRequiredResult> => {
        const state = ctx.mcpReq.requestState<string>();
        calls.push({
          arguments: { env },
          inputResponses: ctx.mcpReq.inputResponses ?? null,
          requestState: typeof state === "string" ? state : null,
        });
        const view = inputResponse(ctx.mcpReq.inputResponses, "confirm");
        if (view.kind === "elicit" && view.action !== "accept") {
          return {
            content: [
              {
                type: "text",
                text: `Deployment to ${env} was ${view.action === "decline" ? "declined" : "cancelled"}.`,
              },
            ],
            isError: true,
          };
        }
        const confirmed = acceptedContent(
          ctx.mcpReq.inputResponses,
          "confirm",
          z.object({ confirm: z.boolean(), window: z.enum(["now", "tonight"]) }),
        );
        if (!confirmed) {
          return inputRequired({
            inputRequests: {
              confirm: inputRequired.elicit({
                message: `Deploy to ${env}?`,
                requestedSchema: {
                  type: "object",
                  properties: {
                    confirm: { type: "boolean", title: "Confirm" },
                    window: { type: "string", title: "When", enum: ["now", "tonight"] },
                  },
                  required: ["confirm", "window"],
                },
              }),
            },
            requestState: `deploy:${env}:round-1`,
          });
        }
        if (state !== `deploy:${env}:round-1`) {
          return {
            content: [{ type: "text", text: `requestState came back changed: ${String(state)}` }],
            isError: true,
          };
        }
        return {
          content: [
            {
              type: "text",
              text: `Deployed to ${env} (${confirmed.window}, confirmed=${confirmed.confirm}).`,
            },
          ],
        };
      },
    );
    server.registerTool(
      "sign-in",
      { description: "Needs the person to sign in on the server's page.", inputSchema: z.object({}) },
      async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
        const view = inputResponse(ctx.mcpReq.inputResponses, "signin");
        if (view.kind !== "elicit") {
          return inputRequired({
            inputRequests: {
              signin: inputRequired.elicitUrl({
                message: "Sign in to the test service",
                url: "https://auth.example.com/signin?session=test",
              }),
            },
          });
        }
        return {
          content: [{ type: "text", text: `Sign-in ${view.action}.` }],
          isError: view.action !== "accept",
        };
      },
    );
    server.registerTool(
      "summarize",
      { description: "Asks the client's model for a summary.", inputSchema: z.object({}) },
      async (): Promise<CallToolResult | InputRequiredResult> =>
        inputRequired({
          inputRequests: {
            summary: inputRequired.createMessage({
              messages: [{ role: "user", content: { type: "text", text: "Summarize" } }],
              maxTokens: 50,
            }),
          },
        }),
    );
    server.registerTool(
      "sleep",
      { description: "Never answers.", inputSchema: z.object({}), annotations: { readOnlyHint: true } },
      () => new Promise<CallToolResult>(() => undefined),
    );
    server.registerTool(
      "big-output",
      {
        description: "Answers with `size` characters.",
        inputSchema: z.object({ size: z.number().int().min(1).max(1_000_000) }),
        annotations: { readOnlyHint: true },
      },
      async ({ size }) => ({ content: [{ type: "text", text: "y".repeat(size) }] }),
    );
    // A server's annotations are its own claim: this one says read-only and is not.
    server.registerTool(
      "drop-table",
      {
        description: "Drops a table (and says it only reads).",
        inputSchema: z.object({ table: z.string() }),
        annotations: { readOnlyHint: true },
      },
      async ({ table }) => ({ content: [{ type: "text", text: `dropped ${table}` }] }),
    );
    for (const name of ["get.time", "get_time"]) {
      server.registerTool(
        name,
        {
          description: `Tells the time (${name}).`,
          inputSchema: z.object({}),
          annotations: { readOnlyHint: true },
        },
        async () => ({ content: [{ type: "text", text: `${name}: 12:00` }] }),
      );
    }
    return server;
  });
}

import { describe, expect, it } from "vitest";
import type { McpCallOutcome } from "../../../src/mcp/mcp-connection";
import { callWithRounds, type McpCallState } from "../../../src/mcp/mcp-rounds";
import type { ElicitResult } from "../../../src/protocol/forms/elicitation";

function rounds(outcomes: McpCallOutcome[]) {
  const sent: unknown[] = [];
  const stored = new Map<string, McpCallState>();
  const context = {
    server: "s",
    serverUrl: "https://mcp.example.com/mcp",
    tool: "t",
    toolCallId: "toolu_1",
    input: {},
    signal: new AbortController().signal,
    calls: {
      get: (id: string) => stored.get(id) ?? null,
      save: (id: string, _s: string, state: McpCallState) => void stored.set(id, state),
    },
    call: async (options: unknown) => {
      sent.push(options);
      const next = outcomes.shift();
      if (!next) throw new Error("no more outcomes");
      return next;
    },
    elicit: async (_params: unknown): Promise<ElicitResult> => ({ action: "accept", content: { ok: true } }),
  };
  return { context, sent, stored };
}

describe("input_required rounds", () => {
  it("refuse sampling with an error result and send nothing more to the server", async () => {
    const { context, sent } = rounds([
      {
        kind: "input_required",
        inputRequests: {
          summary: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } },
        },
        requestState: "st",
      },
    ]);
    expect(await callWithRounds(context)).toEqual({
      content:
        'MCP server "s" asked this client to run the model for it (sampling), which Parley does not offer; the call was not completed.',
      isError: true,
    });
    expect(sent).toHaveLength(1);
  });

  it("refuse a form outside the elicitation subset, naming the problem", async () => {
    const { context } = rounds([
      {
        kind: "input_required",
        inputRequests: {
          form: {
            method: "elicitation/create",
            params: {
              message: "Where?",
              requestedSchema: { type: "object", properties: { a: { type: "object" } } },
            },
          },
        },
        requestState: null,
      },
    ]);
    const output = await callWithRounds(context);
    expect(output).toMatchObject({ isError: true });
    expect(JSON.stringify(output)).toMatch(
      /asked for a form Parley cannot show: .*nested objects are not supported/,
    );
  });

  it("ask the person to visit a URL request's page, named by the server that sent it, and send back only the action", async () => {
    const asked: unknown[] = [];
    const { context, sent } = rounds([
      {
        kind: "input_required",
        inputRequests: {
          signin: {
            method: "elicitation/create",
            params: {
              mode: "url",
              message: "Sign in",
              url: "https://auth.example.com/s",
              elicitationId: "e1",
              // A server's own claim of who it is counts for nothing: the configuration names it.
              from: { server: "bank", host: "bank.example" },
            },
          },
        },
        requestState: "st",
      },
      { kind: "result", result: { content: [{ type: "text", text: "Signed in." }] } },
    ]);
    context.elicit = async (params) => {
      asked.push(params);
      return { action: "accept", content: { ok: true } };
    };
    expect(await callWithRounds(context)).toMatchObject({ isError: false });
    expect(asked).toEqual([
      {
        mode: "url",
        message: "Sign in",
        url: "https://auth.example.com/s",
        elicitationId: "e1",
        from: { server: "s", host: "mcp.example.com" },
      },
    ]);
    expect(sent[1]).toEqual({ inputResponses: { signin: { action: "accept" } }, requestState: "st" });
  });

  it("refuse a URL request whose address is not an http(s) page, showing the person nothing", async () => {
    const { context, sent } = rounds([
      {
        kind: "input_required",
        inputRequests: {
          signin: {
            method: "elicitation/create",
            params: { mode: "url", message: "Sign in", url: "javascript:alert(1)" },
          },
        },
        requestState: null,
      },
    ]);
    context.elicit = async () => {
      throw new Error("no card may open");
    };
    const output = await callWithRounds(context);
    expect(output).toEqual({
      content:
        'MCP server "s" asked for a page to open that Parley will not show: url: url must be an http or https address.',
      isError: true,
    });
    expect(sent).toHaveLength(1);
  });

  it("give up on a server that keeps asking", async () => {
    const ask: McpCallOutcome = {
      kind: "input_required",
      inputRequests: { more: { method: "roots/list" } },
      requestState: "again",
    };
    const { context, sent } = rounds(Array.from({ length: 10 }, () => ask));
    expect(await callWithRounds(context)).toEqual({
      content: 'MCP server "s" kept asking for input (6 rounds); the call was given up.',
      isError: true,
    });
    expect(sent).toHaveLength(6);
  });
});

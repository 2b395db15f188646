// The contract every ModelClient keeps, run against each implementation: the raw event sequence,
// text and tool input rebuilt from deltas, stop reason and usage, failures and aborts.
import { describe, expect, it } from "vitest";
import { type ModelClient, ModelError, type ModelErrorCode } from "../../../src/model/model-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import { call, collect, request } from "./assemble-events";

/** Builds a client whose model answers successive calls with `script`. */
export type MakeClient = (script: ScriptedReply[]) => ModelClient;

export async function expectModelError(promise: Promise<unknown>, code: ModelErrorCode): Promise<ModelError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected ModelError(${code}), but the call succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelError);
  expect(error).toMatchObject({ code });
  return error as ModelError;
}

const LONG_TEXT = "Parley pauses for people and resumes on any device — even hours later. ✅ Done.";

export function describeModelClientContract(name: string, makeClient: MakeClient): void {
  describe(`${name} keeps the ModelClient contract`, () => {
    it("streams a text reply from message_start to message_stop, in many deltas that add up to the text", async () => {
      const message = await call(makeClient([{ content: [{ type: "text", text: LONG_TEXT }] }]));

      expect(message.eventTypes[0]).toBe("message_start");
      expect(message.eventTypes.slice(-2)).toEqual(["message_delta", "message_stop"]);
      expect(message.content).toEqual([{ type: "text", text: LONG_TEXT, deltas: expect.any(Number) }]);
      expect(message.content[0]?.deltas).toBeGreaterThan(5);
      expect(message.stopReason).toBe("end_turn");
    });

    it("echoes the requested model in message_start", async () => {
      const message = await call(
        makeClient([{ content: [{ type: "text", text: "hi" }] }]),
        request({ model: "claude-echo" }),
      );
      expect(message.model).toBe("claude-echo");
    });

    it("rebuilds tool input from partial JSON pieces and stops for the tool", async () => {
      const input = { key: "demo", text: "Laptop, Phone — “quoted”", nested: { n: 3, list: [1, 2] } };
      const message = await call(
        makeClient([
          {
            content: [
              { type: "text", text: "Saving it." },
              { type: "tool_use", id: "toolu_contract_1", name: "notes_write", input },
            ],
          },
        ]),
      );

      expect(message.content[1]).toEqual({
        type: "tool_use",
        id: "toolu_contract_1",
        name: "notes_write",
        input,
        deltas: expect.any(Number),
      });
      expect(message.content[1]?.deltas).toBeGreaterThan(1);
      expect(message.stopReason).toBe("tool_use");
    });

    it("reports the stop reason and the token usage of the reply", async () => {
      const message = await call(
        makeClient([
          {
            content: [{ type: "text", text: "Cut off mid-sen" }],
            stopReason: "max_tokens",
            usage: { input_tokens: 42, output_tokens: 7 },
          },
        ]),
      );
      expect(message.stopReason).toBe("max_tokens");
      expect(message.usage).toEqual({ input_tokens: 42, output_tokens: 7 });
    });

    it("answers successive calls with successive replies", async () => {
      const client = makeClient([
        { content: [{ type: "text", text: "first" }] },
        { content: [{ type: "text", text: "second" }] },
      ]);
      const texts = [await call(client), await call(client)].map((m) => m.content[0]);
      expect(texts).toMatchObject([{ text: "first" }, { text: "second" }]);
    });

    it("stops with ModelError('aborted') when the signal aborts mid-stream", async () => {
      const client = makeClient([{ content: [{ type: "text", text: LONG_TEXT }], stallAfterEvents: 3 }]);
      const controller = new AbortController();
      const iterator = client.stream(request(), controller.signal)[Symbol.asyncIterator]();
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push((await iterator.next()).value?.type);
      expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta"]);

      const next = iterator.next();
      controller.abort();
      await expectModelError(next, "aborted");
    });

    it("refuses to start when the signal is already aborted", async () => {
      const client = makeClient([{ content: [{ type: "text", text: "never" }] }]);
      const controller = new AbortController();
      controller.abort();
      await expectModelError(collect(client.stream(request(), controller.signal)), "aborted");
    });

    it("delivers the events before a mid-stream failure, then throws it as a ModelError", async () => {
      const client = makeClient([
        {
          content: [{ type: "text", text: LONG_TEXT }],
          error: { code: "overloaded", message: "Overloaded", afterEvents: 4 },
        },
      ]);
      const received: string[] = [];
      const consume = async () => {
        for await (const event of client.stream(request(), new AbortController().signal))
          received.push(event.type);
      };
      const error = await expectModelError(consume(), "overloaded");
      expect(error.message).toContain("Overloaded");
      expect(received).toHaveLength(4);
    });

    it("streams an empty tool input as JSON that parses to an empty object", async () => {
      const message = await call(
        makeClient([{ content: [{ type: "tool_use", name: "current_time", input: {} }] }]),
      );
      expect(message.content).toMatchObject([{ type: "tool_use", name: "current_time", input: {} }]);
    });
  });
}

import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../../src/model/model-client";
import { ScriptedModelClient } from "../../../src/model/scripted-client";
import { call, collect, request } from "./assemble-events";
import { describeModelClientContract, expectModelError } from "./model-client.contract";

describeModelClientContract("ScriptedModelClient", (script) => new ScriptedModelClient(script));

/** Resolves to "pending" when `promise` has not settled after a few turns of the event loop. */
async function stateOf(promise: Promise<unknown>): Promise<"settled" | "pending"> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  return settled ? "settled" : "pending";
}

describe("ScriptedModelClient", () => {
  it("fails with script_exhausted when called more often than the script has replies", async () => {
    const client = new ScriptedModelClient([{ content: [{ type: "text", text: "only one" }] }]);
    await call(client);
    const error = await expectModelError(call(client), "script_exhausted");
    expect(error.message).toContain("1 replies");
  });

  it("hangs after stallAfterEvents events until the call is aborted", async () => {
    const client = new ScriptedModelClient([
      { content: [{ type: "text", text: "hello there" }], stallAfterEvents: 2 },
    ]);
    const controller = new AbortController();
    const iterator = client.stream(request(), controller.signal)[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();

    const third = iterator.next();
    expect(await stateOf(third)).toBe("pending");
    controller.abort();
    await expectModelError(third, "aborted");
  });

  it("fails with the scripted error after the scripted number of events", async () => {
    const client = new ScriptedModelClient([
      {
        content: [{ type: "text", text: "partial answer" }],
        error: { code: "connection", message: "socket closed", afterEvents: 2 },
      },
    ]);
    const received: string[] = [];
    const consume = async () => {
      for await (const event of client.stream(request(), new AbortController().signal))
        received.push(event.type);
    };
    const error = await expectModelError(consume(), "connection");
    expect(error.message).toBe("socket closed");
    expect(received).toEqual(["message_start", "content_block_start"]);
  });

  it("fails before any event when the scripted error has no afterEvents", async () => {
    const client = new ScriptedModelClient([
      { content: [], error: { code: "rate_limited", message: "slow down" } },
    ]);
    await expectModelError(collect(client.stream(request(), new AbortController().signal)), "rate_limited");
  });

  it("gives tool calls deterministic ids from the call index and block position", async () => {
    let next = 5;
    const reply = {
      content: [
        { type: "text" as const, text: "two tools" },
        { type: "tool_use" as const, name: "current_time", input: {} },
        { type: "tool_use" as const, name: "notes_read", input: { key: "a" } },
      ],
    };
    const client = new ScriptedModelClient(() => reply, { nextCallIndex: () => next++ });
    const ids = async () =>
      (await call(client)).content.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));

    expect(await ids()).toEqual(["toolu_5_1", "toolu_5_2"]);
    expect(await ids()).toEqual(["toolu_6_1", "toolu_6_2"]);
  });

  it("records a deep copy of every request, so later edits to the transcript do not rewrite history", async () => {
    const client = new ScriptedModelClient(
      [{ content: [{ type: "text", text: "one" }] }, { content: [{ type: "text", text: "two" }] }],
      { record: true },
    );
    const body = request();
    await call(client, body);
    body.messages.push({ role: "assistant", content: [{ type: "text", text: "one" }] });
    body.messages.push({ role: "user", content: "and again" });
    await call(client, body);

    expect(client.requests.map((r) => r.messages.length)).toEqual([1, 3]);
  });

  it("keeps no requests unless asked to record them, so a long demo session does not grow", async () => {
    const client = new ScriptedModelClient(() => ({ content: [{ type: "text", text: "again" }] }));
    await call(client);
    await call(client);
    expect(client.requests).toEqual([]);
  });

  it("asks a function source for each reply with the request and the call index", async () => {
    const seen: Array<[string, number]> = [];
    const client = new ScriptedModelClient((req: ModelRequest, callIndex: number) => {
      seen.push([req.model, callIndex]);
      return { content: [{ type: "text", text: `reply ${callIndex}` }] };
    });
    await call(client, request({ model: "m1" }));
    const second = await call(client, request({ model: "m2" }));

    expect(seen).toEqual([
      ["m1", 0],
      ["m2", 1],
    ]);
    expect(second.content[0]).toMatchObject({ text: "reply 1" });
  });

  it("turns a malformed reply from a function source into an invalid_request error", async () => {
    const client = new ScriptedModelClient(() => ({
      content: [{ type: "tool_use", name: "bad name!", input: {} }],
    }));
    await expectModelError(call(client), "invalid_request");
  });

  it("splits text into deltas of textChunkSize characters without breaking an emoji apart", async () => {
    const client = new ScriptedModelClient([
      { content: [{ type: "text", text: "ab😀cd😀e" }], textChunkSize: 3 },
    ]);
    const events = await collect(client.stream(request(), new AbortController().signal));
    const deltas = events.flatMap((e) =>
      e.type === "content_block_delta" && e.delta.type === "text_delta" ? [e.delta.text] : [],
    );
    expect(deltas).toEqual(["ab😀", "cd😀", "e"]);
  });

  it("stops waiting between paced events as soon as the call is aborted", async () => {
    const client = new ScriptedModelClient([{ content: [{ type: "text", text: "slow" }], paceMs: 60_000 }]);
    const controller = new AbortController();
    const iterator = client.stream(request(), controller.signal)[Symbol.asyncIterator]();
    await iterator.next();
    const second = iterator.next();
    expect(await stateOf(second)).toBe("pending");
    controller.abort();
    await expectModelError(second, "aborted");
  });

  it("says whether it is the demo model and what it is called", () => {
    expect(new ScriptedModelClient([])).toMatchObject({ name: "scripted", demo: false });
    expect(new ScriptedModelClient([], { name: "demo", demo: true })).toMatchObject({
      name: "demo",
      demo: true,
    });
  });
});

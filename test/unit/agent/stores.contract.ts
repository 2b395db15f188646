// The contract every implementation of the loop's store ports keeps, run against the SQLite stores
// (in the Workers runtime) and the in-memory ones, the way one router suite runs against every router.
import { describe, expect, it } from "vitest";
import type { AgentDeps } from "../../../src/agent/agent-deps";
import type { FrameRecord } from "../../../src/agent/ports";

export type Stores = Pick<
  AgentDeps,
  "events" | "frames" | "transcript" | "queue" | "turn" | "interactions" | "results" | "rules" | "deadlines"
>;

/** Runs `test` against a fresh, empty set of stores. */
export type WithStores = (test: (stores: Stores) => void) => Promise<void>;

function frame(
  overrides: Partial<FrameRecord> & { frameId: string; depth: number },
): Omit<FrameRecord, "status" | "iterations" | "endedAt"> {
  return {
    parentFrameId: "main",
    parentToolCallId: `toolu_${overrides.frameId}`,
    agent: "researcher",
    task: "Find things",
    startedAt: 1_000,
    ...overrides,
  };
}

const text = (value: string) => [{ type: "text" as const, text: value }];

export function describeStoreContract(name: string, withStores: WithStores): void {
  describe(`${name} keep the store contract`, () => {
    it("keeps a transcript in order and reads the last message back", () =>
      withStores(({ transcript }) => {
        expect(transcript.last()).toBeNull();
        transcript.append("user", text("hi"));
        transcript.append("assistant", text("hello"));
        expect(transcript.messages()).toEqual([
          { role: "user", content: text("hi") },
          { role: "assistant", content: text("hello") },
        ]);
        expect(transcript.last()).toMatchObject({ role: "assistant", content: text("hello") });
      }));

    it("merges a user message into the user message before it, after its tool results", () =>
      withStores(({ transcript }) => {
        transcript.append("user", text("hi"));
        transcript.append("assistant", [
          { type: "tool_use", id: "toolu_1", name: "current_time", input: {} },
        ]);
        transcript.append("user", [{ type: "tool_result", tool_use_id: "toolu_1", content: "noon" }]);
        transcript.append("user", text("and now?"));
        expect(transcript.messages()).toHaveLength(3);
        expect(transcript.last()?.content).toEqual([
          { type: "tool_result", tool_use_id: "toolu_1", content: "noon" },
          ...text("and now?"),
        ]);
      }));

    it("gives each frame its own transcript and always works on the top of the stack", () =>
      withStores(({ transcript, frames }) => {
        transcript.append("user", text("main asks"));
        frames.push(frame({ frameId: "f1", depth: 1 }));
        expect(transcript.messages()).toEqual([]);
        expect(transcript.last()).toBeNull();
        transcript.append("user", text("the task"));
        transcript.append("user", text("more"));
        expect(transcript.messages()).toEqual([
          { role: "user", content: [...text("the task"), ...text("more")] },
        ]);
        // A frame below the top is still readable by its id (a parent's cards are decided there).
        expect(transcript.messagesOf("main")).toEqual([{ role: "user", content: text("main asks") }]);
        expect(transcript.messagesOf("f1")).toEqual(transcript.messages());
        frames.end("f1", "completed", 2_000);
        expect(transcript.messages()).toEqual([{ role: "user", content: text("main asks") }]);
      }));

    it("starts with an empty stack, so the main agent holds the conversation", () =>
      withStores(({ frames }) => {
        expect(frames.stack()).toEqual([]);
        expect(frames.top()).toBeNull();
        expect(frames.get("nope")).toBeNull();
      }));

    it("pushes frames, lists them bottom first and pops the top by ending it", () =>
      withStores(({ frames }) => {
        frames.push(frame({ frameId: "f1", depth: 1 }));
        frames.push(frame({ frameId: "f2", depth: 2, parentFrameId: "f1", agent: "note-keeper" }));
        expect(frames.stack().map((f) => f.frameId)).toEqual(["f1", "f2"]);
        expect(frames.top()).toEqual({
          frameId: "f2",
          parentFrameId: "f1",
          parentToolCallId: "toolu_f2",
          agent: "note-keeper",
          task: "Find things",
          depth: 2,
          status: "active",
          iterations: 0,
          startedAt: 1_000,
          endedAt: null,
        });
        expect(frames.end("f2", "completed", 5_000)).toBe(true);
        expect(frames.top()?.frameId).toBe("f1");
        expect(frames.get("f2")).toMatchObject({ status: "completed", endedAt: 5_000 });
      }));

    it("ends a frame once: a second end changes nothing", () =>
      withStores(({ frames }) => {
        frames.push(frame({ frameId: "f1", depth: 1 }));
        expect(frames.end("f1", "cancelled", 5_000)).toBe(true);
        expect(frames.end("f1", "completed", 6_000)).toBe(false);
        expect(frames.get("f1")).toMatchObject({ status: "cancelled", endedAt: 5_000 });
      }));

    it("refuses a second frame for the same delegation call", () =>
      withStores(({ frames }) => {
        frames.push(frame({ frameId: "f1", depth: 1 }));
        expect(() => frames.push(frame({ frameId: "f2", depth: 1, parentToolCallId: "toolu_f1" }))).toThrow();
        expect(frames.stack()).toHaveLength(1);
      }));

    it("counts model calls per frame", () =>
      withStores(({ frames }) => {
        frames.push(frame({ frameId: "f1", depth: 1 }));
        frames.push(frame({ frameId: "f2", depth: 2 }));
        frames.countModelCall("f1");
        frames.countModelCall("f1");
        frames.countModelCall("f2");
        expect(frames.get("f1")?.iterations).toBe(2);
        expect(frames.get("f2")?.iterations).toBe(1);
      }));

    it("hands out queued messages strictly in arrival order", () =>
      withStores(({ queue }) => {
        expect(queue.shift()).toBeNull();
        queue.push({ id: "m1", text: "one" });
        queue.push({ id: "m2", text: "two" });
        expect(queue.size()).toBe(2);
        expect(queue.shift()).toEqual({ id: "m1", text: "one" });
        expect(queue.shift()).toEqual({ id: "m2", text: "two" });
        expect(queue.size()).toBe(0);
      }));

    it("saves, reads and ends the current turn, and counts model calls", () =>
      withStores(({ turn }) => {
        expect(turn.current()).toBeNull();
        const record = {
          id: "turn_1",
          messageId: "m1",
          iterations: 2,
          usage: { input_tokens: 3, output_tokens: 4 },
          pausedForPerson: true,
          callInFlight: false,
          restarts: 1,
        };
        turn.save(record);
        expect(turn.current()).toEqual(record);
        turn.end();
        expect(turn.current()).toBeNull();
        expect(turn.nextModelCall()).toBe(0);
        expect(turn.nextModelCall()).toBe(1);
        expect(turn.systemPrompt().length).toBeGreaterThan(0);
      }));

    it("announces a status or mode change once, and not a repeat of the same", () =>
      withStores(({ turn, events }) => {
        expect(turn.status()).toBe("idle");
        expect(turn.mode()).toBe("default");
        const before = events.append("error", { code: "probe", message: "before" }).seq;
        turn.setStatus("running");
        turn.setStatus("running");
        turn.setMode("plan");
        turn.setMode("plan");
        turn.setStatus("failed", "broke");
        expect(turn.status()).toBe("failed");
        expect(turn.mode()).toBe("plan");
        expect(events.append("error", { code: "probe", message: "after" }).seq).toBe(before + 4);
      }));

    it("lists pending interactions in creation order and the due ones by deadline", () =>
      withStores(({ interactions }) => {
        const base = { kind: "question", toolName: "AskUserQuestion", request: { q: 1 }, frameId: "main" };
        interactions.create({ ...base, id: "a", toolCallId: "a", deadline: 900, createdAt: 10 });
        interactions.create({ ...base, id: "b", toolCallId: "b", deadline: 500, createdAt: 20 });
        // A tool's own form: an interaction id of its own, belonging to tool call b.
        // A delegated agent's card: it remembers the frame whose tool call it belongs to.
        interactions.create({
          ...base,
          id: "b#form1",
          toolCallId: "b",
          frameId: "frame_7",
          deadline: 2_000,
          createdAt: 30,
        });
        expect(interactions.pending().map((r) => r.id)).toEqual(["a", "b", "b#form1"]);
        expect(interactions.due(1_000).map((r) => r.id)).toEqual(["b", "a"]);
        expect(interactions.get("b#form1")).toMatchObject({ toolCallId: "b", frameId: "frame_7" });
        expect(interactions.get("a")).toEqual({
          ...base,
          id: "a",
          toolCallId: "a",
          deadline: 900,
          createdAt: 10,
          status: "pending",
          response: null,
          resolvedAt: null,
          resolvedBy: null,
          answeredBy: null,
          decider: null,
        });
      }));

    it("resolves an interaction once: the first resolution wins", () =>
      withStores(({ interactions }) => {
        interactions.create({
          id: "a",
          toolCallId: "a",
          frameId: "main",
          kind: "approval",
          toolName: "notes_write",
          request: {},
          deadline: 900,
          createdAt: 10,
        });
        expect(interactions.resolve("a", "approved", { decision: "approve" }, "phone", 50)).toBe(true);
        expect(interactions.resolve("a", "denied", { decision: "deny" }, "laptop", 60)).toBe(false);
        expect(interactions.resolve("missing", "denied", null, null, 60)).toBe(false);
        expect(interactions.get("a")).toMatchObject({
          status: "approved",
          response: { decision: "approve" },
          resolvedBy: "phone",
          resolvedAt: 50,
        });
        expect(interactions.pending()).toEqual([]);
      }));

    it("keeps the first tool result and remembers which tools started", () =>
      withStores(({ results }) => {
        const first = { toolCallId: "t1", name: "x", content: "one", isError: false, truncated: false };
        results.put(first);
        results.put({ ...first, content: "two", isError: true });
        expect(results.get("t1")).toEqual(first);
        expect(results.get("t2")).toBeNull();
        expect(results.wasStarted("t1")).toBe(false);
        results.markStarted("t1");
        results.markStarted("t1");
        expect(results.wasStarted("t1")).toBe(true);
        results.clearStarted("t1");
        expect(results.wasStarted("t1")).toBe(false);
      }));

    it("remembers tools the person always allows", () =>
      withStores(({ rules }) => {
        expect(rules.allowed()).toEqual(new Set());
        rules.allow("notes_write");
        rules.allow("notes_write");
        expect(rules.allowed()).toEqual(new Set(["notes_write"]));
      }));

    it("sets and clears the watchdog deadline", () =>
      withStores(({ deadlines }) => {
        expect(deadlines.watchdog()).toBeNull();
        deadlines.setWatchdog(Date.now() + 60_000);
        expect(deadlines.watchdog()).toBeGreaterThan(Date.now());
        deadlines.setWatchdog(null);
        expect(deadlines.watchdog()).toBeNull();
      }));

    it("numbers events one after another", () =>
      withStores(({ events }) => {
        const a = events.append("error", { code: "a", message: "first" });
        const b = events.append("error", { code: "b", message: "second" });
        expect(b.seq).toBe(a.seq + 1);
        expect(b.data).toEqual({ code: "b", message: "second" });
      }));
  });
}

// A turn survives losing its Durable Object instance mid-flight: the watchdog alarm notices that
// nobody is driving a `running` turn, says so, and continues from storage.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolResultBlockParam } from "../../../src/model/model-client";
import { notesWrite } from "../../../src/tools/builtin/notes-write";
import {
  type CreatedSession,
  connect,
  createSession,
  type Device,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { eventsOf, expectValidTranscript, modelRequests, sqlRows, stubOf } from "./agent-harness";

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Evicts the instance, then fires the alarm. The alarm runs now rather than when the two-minute
 * watchdog is due: a turn left `running` with no live runner is lost whenever the alarm looks.
 */
async function crashAndFireWatchdog(session: CreatedSession): Promise<void> {
  const stub = stubOf(session);
  await evictDurableObject(stub);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}

const never = () => new Promise<never>(() => {});

function resultsSent(messages: { role: string; content: unknown }[]): ToolResultBlockParam[] {
  const last = messages[messages.length - 1];
  const content = (last?.content ?? []) as ToolResultBlockParam[];
  return content.filter((b) => b.type === "tool_result");
}

async function waitForRestartedDone(device: Device) {
  const restarted = await device.waitForEvent("turn_restarted");
  const done = await device.waitForEvent("done", (e) => e.seq > restarted.seq);
  return { restarted, done };
}

describe("crash recovery", () => {
  it("announces the restart when a new message is what wakes an instance after a crash", async () => {
    const session = await createSession({
      script: [
        textReply("This reply is lost in the crash", { stallAfterEvents: 3 }),
        textReply("Recovered."),
        textReply("Second."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "first" });
    await device.waitForEvent("text_delta");
    await evictDurableObject(stubOf(session));

    const again = await connect(session, { after: device.events.at(-1)?.seq ?? 0 });
    await again.request({ type: "send_message", text: "second" });
    const restarted = await again.waitForEvent("turn_restarted");
    const queued = again.event("user_message", (e) => e.data.text === "second");
    expect(queued?.data.queued).toBe(true);
    const firstDone = await again.waitForEvent("done", (e) => e.seq > restarted.seq);
    const recovered = eventsOf(again, "text_delta").filter(
      (e) => e.seq > restarted.seq && e.seq < firstDone.seq,
    );
    expect(recovered.map((e) => e.data.text).join("")).toBe("Recovered.");
    await again.waitForDone(2);
    expectValidTranscript((await modelRequests(session)).at(-1)?.messages ?? []);
  });

  it("re-issues a model call lost to eviction from the stored transcript after a turn_restarted event", async () => {
    const session = await createSession({
      script: [
        textReply("This reply is lost in the crash", { stallAfterEvents: 3 }),
        textReply("Recovered."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "are you there?" });
    await device.waitForEvent("text_delta");

    await crashAndFireWatchdog(session);
    const { restarted, done } = await waitForRestartedDone(device);
    const turnId = device.event("turn_started")?.data.turnId;
    expect(restarted.data.turnId).toBe(turnId);
    expect(done.data).toMatchObject({ turnId, stopReason: "end_turn" });
    const after = eventsOf(device, "text_delta").filter((e) => e.seq > restarted.seq);
    expect(after.map((e) => e.data.text).join("")).toBe("Recovered.");

    // The new instance made exactly one call (reply 1), with the transcript as stored.
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.messages).toHaveLength(1);
    expectValidTranscript(requests[0]?.messages ?? []);
    await device.waitForEvent("session_status", (e) => e.seq > done.seq && e.data.status === "idle");
  });

  // notes_write stands in for a slow tool: its run is made to hang on the first call. (A hung
  // fetch_url would do too, but its pending 10-s timeout timer holds eviction for ten seconds.)
  it("runs an interrupted idempotent tool again after a crash, and the model sees one paired result", async () => {
    const run = vi.spyOn(notesWrite, "run").mockImplementationOnce(never);
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([{ id: "toolu_save", name: "notes_write", input: { key: "todo", text: "Water plants" } }]),
        textReply("Saved."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "remember to water the plants" });
    await device.waitForEvent("tool_call_end");
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));

    await crashAndFireWatchdog(session);
    // A lost tool run is not a lost model call: the tool card simply gets its result, no restart notice.
    await device.waitForDone();
    expect(device.event("turn_restarted")).toBeUndefined();
    expect(run).toHaveBeenCalledTimes(2);
    const request = (await modelRequests(session))[0];
    expectValidTranscript(request?.messages ?? []);
    const [result] = resultsSent(request?.messages ?? []);
    expect(result).toMatchObject({
      tool_use_id: "toolu_save",
      content: 'Saved note "todo" (12 characters).',
    });
    expect(eventsOf(device, "tool_result")).toHaveLength(1);
    expect(await sqlRows(session, "SELECT key, text FROM notes")).toEqual([
      { key: "todo", text: "Water plants" },
    ]);
  });

  it("gives an interrupted non-idempotent tool an error result instead of running it a second time", async () => {
    // Every built-in tool is idempotent; this one is declared otherwise for the test.
    vi.spyOn(notesWrite, "idempotent", "get").mockReturnValue(false);
    const run = vi.spyOn(notesWrite, "run").mockImplementation(never);
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([{ id: "toolu_once", name: "notes_write", input: { key: "order", text: "1 pizza" } }]),
        textReply("I will check before retrying."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "place the order" });
    await device.waitForEvent("tool_call_end");
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));

    await crashAndFireWatchdog(session);
    const done = await device.waitForDone();
    expect(device.event("turn_restarted")).toBeUndefined();
    expect(done.data.stopReason).toBe("end_turn");
    expect(run).toHaveBeenCalledTimes(1);
    const request = (await modelRequests(session))[0];
    expectValidTranscript(request?.messages ?? []);
    const [result] = resultsSent(request?.messages ?? []);
    expect(result).toMatchObject({ tool_use_id: "toolu_once", is_error: true });
    expect(result?.content).toContain("interrupted");
    expect(result?.content).toContain("not run again");
  });
});

// The agent stack survives losing its Durable Object instance at any depth and in any state: a
// model call streaming inside a subagent, a tool running in one, a card open in one, a subagent
// waiting for the person, and a parent resuming after a pop. No frame is lost or run twice.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolResultBlockParam } from "../../../src/model/model-client";
import { notesWrite } from "../../../src/tools/builtin/notes-write";
import {
  type CreatedSession,
  connect,
  createSession,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import { eventsOf, expectValidTranscript, modelRequests, sqlRows, stubOf } from "./agent-harness";

afterEach(() => {
  vi.restoreAllMocks();
});

const delegate = (id: string, agent: string, prompt = "Help, please.") => ({
  id,
  name: "Agent",
  input: { description: `Ask ${agent}`, prompt, subagent_type: agent },
});
const complete = (id: string, result: string) => ({ id, name: "complete", input: { result } });
const ask = {
  id: "toolu_q",
  name: "AskUserQuestion",
  input: {
    questions: [
      {
        question: "Which version?",
        header: "Version",
        multiSelect: false,
        options: [
          { label: "3.12", description: "Older" },
          { label: "3.13", description: "Newer" },
        ],
      },
    ],
  },
};

async function crashAndFireWatchdog(session: CreatedSession): Promise<void> {
  const stub = stubOf(session);
  await evictDurableObject(stub);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}

function lastResults(messages: { role: string; content: unknown }[] | undefined): ToolResultBlockParam[] {
  const content = (messages?.at(-1)?.content ?? []) as ToolResultBlockParam[];
  return content.filter((b) => b.type === "tool_result");
}

async function frameRows(session: CreatedSession) {
  return sqlRows<{ agent: string; status: string; depth: number }>(
    session,
    "SELECT agent, status, depth FROM frames ORDER BY depth",
  );
}

describe("the agent stack across eviction", () => {
  it("re-issues a subagent's lost model call in the subagent's own context", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher", "Find it.")]),
        textReply("Lost in the crash, this text", { stallAfterEvents: 3 }),
        toolReply([complete("toolu_c", "found it")]),
        textReply("Main resumes."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("text_delta", (e) => e.data.text.includes("Lost"));
    await crashAndFireWatchdog(session);
    await device.waitForDone();
    expect(eventsOf(device, "turn_restarted")).toHaveLength(1);
    expect(eventsOf(device, "agent_started")).toHaveLength(1);
    const [child, main] = await modelRequests(session);
    expect(child?.messages).toEqual([
      { role: "user", content: [expect.objectContaining({ type: "text", text: "Find it." })] },
    ]);
    expect(child?.system?.[0]?.text).toMatch(/researcher/);
    expect(lastResults(main?.messages)[0]?.content).toBe("found it");
    expect(await frameRows(session)).toEqual([{ agent: "researcher", status: "completed", depth: 1 }]);
  });

  it("finishes a tool cut off inside a subagent, once, and carries on in that subagent", async () => {
    const run = vi.spyOn(notesWrite, "run").mockImplementationOnce(() => new Promise<never>(() => {}));
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([delegate("toolu_d", "note-keeper")]),
        toolReply([{ id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } }]),
        toolReply([complete("toolu_c", "saved k")]),
        textReply("Main resumes."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    await crashAndFireWatchdog(session);
    await device.waitForDone();
    expect(run).toHaveBeenCalledTimes(2);
    expect(eventsOf(device, "tool_result").filter((e) => e.data.toolCallId === "toolu_w")).toHaveLength(1);
    const [child, main] = await modelRequests(session);
    expect(lastResults(child?.messages)[0]).toMatchObject({ tool_use_id: "toolu_w" });
    expect(lastResults(main?.messages)[0]?.content).toBe("saved k");
    expect(await sqlRows(session, "SELECT key, text FROM notes")).toEqual([{ key: "k", text: "v" }]);
  });

  it("keeps a card open in a nested subagent across eviction; the answer resumes it and cascades up", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d1", "researcher")]),
        toolReply([delegate("toolu_d2", "note-keeper")]),
        toolReply([{ id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } }]),
        toolReply([complete("toolu_c2", "saved")]),
        toolReply([complete("toolu_c1", "researched and saved")]),
        textReply("Main resumes."),
      ],
    });
    const laptop = await connect(session, { device: "laptop" });
    await laptop.request({ type: "send_message", text: "go" });
    await laptop.waitForEvent("approval_required");
    await evictDurableObject(stubOf(session));

    const phone = await connect(session, { device: "phone" });
    expect(phone.hello?.snapshot.stack.map((f) => f.agent)).toEqual(["researcher", "note-keeper"]);
    expect(phone.hello?.snapshot.pending.map((p) => p.toolCallId)).toEqual(["toolu_w"]);
    expect(await phone.request({ type: "approve", toolCallId: "toolu_w" })).toMatchObject({ ok: true });
    await phone.waitForDone();
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(3);
    expect(lastResults(requests[0]?.messages)[0]?.tool_use_id).toBe("toolu_w");
    expect(lastResults(requests[1]?.messages)[0]?.content).toBe("saved");
    expect(lastResults(requests[2]?.messages)[0]?.content).toBe("researched and saved");
    for (const request of requests) expectValidTranscript(request.messages);
    expect(await frameRows(session)).toEqual([
      { agent: "researcher", status: "completed", depth: 1 },
      { agent: "note-keeper", status: "completed", depth: 2 },
    ]);
  });

  it("times out a question inside a subagent after eviction; the subagent gets the timeout and carries on", async () => {
    const session = await createSession({
      interactionTimeoutMs: 60_000,
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        toolReply([ask]),
        toolReply([complete("toolu_c", "No answer; I assumed 3.13.")]),
        textReply("Main resumes."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    const prompt = await device.waitForEvent("question_prompt");
    await evictDurableObject(stubOf(session));
    await advanceClock(session, { at: prompt.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stubOf(session))).toBe(true);
    const again = await connect(session);
    await again.waitForEvent("done");
    expect(again.event("interaction_resolved")?.data.outcome).toBe("timed_out");
    const [child, main] = await modelRequests(session);
    expect(lastResults(child?.messages)[0]).toMatchObject({ tool_use_id: "toolu_q", is_error: true });
    expect(lastResults(main?.messages)[0]?.content).toBe("No answer; I assumed 3.13.");
  });

  it("routes the next message to a subagent that was waiting for the person when the instance was lost", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        toolReply([ask]),
        textReply("Thanks. Anything else before I report back?"),
        toolReply([complete("toolu_c", "3.13, nothing else")]),
        textReply("Main resumes."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("question_prompt");
    await evictDurableObject(stubOf(session));
    const again = await connect(session, { after: device.events.at(-1)?.seq ?? 0 });
    await again.request({
      type: "submit_answers",
      toolCallId: "toolu_q",
      answers: { "Which version?": "3.13" },
    });
    await again.waitForDone();
    await evictDurableObject(stubOf(session));

    const third = await connect(session);
    expect(third.hello?.snapshot.stack.map((f) => f.agent)).toEqual(["researcher"]);
    await third.request({ type: "send_message", text: "no, that's all" });
    await third.waitForEvent("agent_completed");
    await third.waitForDone(2);
    const [child, main] = await modelRequests(session);
    expect(JSON.stringify(child?.messages.at(-1))).toContain("no, that's all");
    expect(child?.messages[2]?.content).toEqual([
      expect.objectContaining({
        tool_use_id: "toolu_q",
        content: expect.stringContaining('"Which version?"="3.13"'),
      }),
    ]);
    expect(lastResults(main?.messages)[0]?.content).toBe("3.13, nothing else");
  });

  it("resumes the parent's lost call after a pop without running the finished subagent again", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        toolReply([complete("toolu_c", "done")]),
        textReply("Lost, this parent reply", { stallAfterEvents: 3 }),
        textReply("Main resumes."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("text_delta", (e) => e.data.text.includes("Lost"));
    await crashAndFireWatchdog(session);
    await device.waitForDone();
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.tools.map((t) => t.name)).not.toContain("complete");
    expect(lastResults(requests[0]?.messages)[0]?.content).toBe("done");
    expect(eventsOf(device, "agent_completed")).toHaveLength(1);
  });

  it("cancels a stack restored after eviction: every frame unwinds and each transcript stays valid", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d1", "researcher")]),
        toolReply([delegate("toolu_d2", "note-keeper")]),
        toolReply([{ id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } }]),
        textReply("After the cancel, main again."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("approval_required");
    await evictDurableObject(stubOf(session));
    const again = await connect(session);
    expect(await again.request({ type: "cancel" })).toMatchObject({ ok: true });
    await again.waitForEvent("done", (e) => e.data.stopReason === "cancelled");
    expect(eventsOf(again, "agent_completed").map((e) => [e.data.agent, e.data.outcome])).toEqual([
      ["note-keeper", "cancelled"],
      ["researcher", "cancelled"],
    ]);
    expect((await connect(session)).hello?.snapshot.stack).toEqual([]);
    await again.request({ type: "send_message", text: "hello again" });
    await again.waitForDone(2);
    const [main] = await modelRequests(session);
    expectValidTranscript(main?.messages ?? []);
    // The cancelled delegation's result opens the next user message, followed by the new text.
    expect(main?.messages[2]?.content).toEqual([
      expect.objectContaining({ tool_use_id: "toolu_d1", is_error: true }),
      expect.objectContaining({ type: "text", text: "hello again" }),
    ]);
    const rows = await sqlRows<{ frame_id: string; role: string; content: string }>(
      session,
      "SELECT frame_id, role, content FROM messages ORDER BY id",
    );
    const byFrame = Map.groupBy(rows, (row) => row.frame_id);
    for (const messages of byFrame.values()) {
      expectValidTranscript(
        messages.map((row) => ({ role: row.role as "user", content: JSON.parse(row.content) })),
      );
    }
    expect(byFrame.size).toBe(3);
  });
});

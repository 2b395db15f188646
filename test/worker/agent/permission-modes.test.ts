// What each permission mode does to a tool call in a real turn: run it, deny it, or ask a person.
import { describe, expect, it } from "vitest";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { eventsOf, modelRequests, sqlRows } from "./agent-harness";

describe("permission modes", () => {
  it("runs notes_write without asking in bypassPermissions, and notes_read later returns the note", async () => {
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([{ name: "notes_write", input: { key: "groceries", text: "Buy oat milk" } }]),
        toolReply([{ name: "notes_read", input: { key: "groceries" } }]),
        textReply("Noted."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "remember oat milk" });
    await device.waitForDone();
    expect(device.event("approval_required")).toBeUndefined();
    const results = eventsOf(device, "tool_result").map((e) => [e.data.name, e.data.content, e.data.isError]);
    expect(results).toEqual([
      ["notes_write", 'Saved note "groceries" (12 characters).', false],
      ["notes_read", "Buy oat milk", false],
    ]);
  });

  it("denies notes_write in plan mode with a result that names plan mode, while current_time runs", async () => {
    const session = await createSession({
      permissionMode: "plan",
      script: [
        toolReply([
          { name: "notes_write", input: { key: "draft", text: "Step 1" } },
          { name: "current_time", input: {} },
        ]),
        textReply("Here is my plan."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "plan it" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    expect(device.event("approval_required")).toBeUndefined();
    const write = device.event("tool_result", (e) => e.data.name === "notes_write");
    expect(write?.data.isError).toBe(true);
    expect(write?.data.content).toContain('Permission mode is "plan"');
    expect(write?.data.content).toContain("notes_write");
    expect(device.event("tool_result", (e) => e.data.name === "current_time")?.data.isError).toBe(false);
    expect(await sqlRows(session, "SELECT key FROM notes")).toEqual([]);
  });

  it("asks for approval of notes_write in default mode and waits, while read-only current_time just runs", async () => {
    const session = await createSession({
      permissionMode: "default",
      script: [
        toolReply([
          { name: "current_time", input: {} },
          { id: "toolu_write", name: "notes_write", input: { key: "todo", text: "Call Bob" } },
        ]),
        textReply("Saved."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "note: call Bob" });
    const prompt = await device.waitForEvent("approval_required");
    expect(prompt.data).toMatchObject({
      toolCallId: "toolu_write",
      kind: "approval",
      toolName: "notes_write",
      request: { toolName: "notes_write", input: { key: "todo", text: "Call Bob" } },
    });
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    expect(eventsOf(device, "tool_result").map((e) => e.data.name)).toEqual(["current_time"]);
    expect(device.event("done")).toBeUndefined();
    expect(await modelRequests(session)).toHaveLength(1);
    expect(await sqlRows(session, "SELECT key FROM notes")).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { MAX_INPUT_BYTES } from "../../../src/protocol/limits";
import { api, connect } from "../../helpers/session-harness";
import { expectError } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { createExternal, type ExternalSession } from "./external-fixtures";

const post = (session: ExternalSession, body: unknown) =>
  api("POST", `/api/sessions/${session.sessionId}/progress`, { token: session.agentToken, body });

const RUN = [
  { type: "status", state: "running" },
  { type: "prompt", text: "Make the file" },
  { type: "text", text: "I will create it." },
  { type: "tool_started", toolUseId: "toolu_touch", name: "Bash", input: { command: "touch made.txt" } },
  { type: "tool_finished", toolUseId: "toolu_touch", name: "Bash", result: "(no output)", isError: false },
  { type: "text", text: "Done." },
  { type: "status", state: "done" },
];

describe("an external agent's progress", () => {
  it("is stored as the loop's own events, marked with the agent's name, and replayed to a late device", async () => {
    const session = await createExternal();
    const phone = await connect(session);
    const posted = await post(session, { events: RUN });
    expect(posted.status).toBe(200);
    await phone.until(() => phone.events.length >= 10, "ten events");
    const types = phone.events.map((event) => event.type);
    expect(types).toEqual([
      "session_status",
      "user_message",
      "turn_started",
      "text_delta",
      "tool_call_start",
      "tool_call_end",
      "tool_result",
      "text_delta",
      "done",
      "session_status",
    ]);
    const marked = phone.events.filter((event) => "agent" in event.data);
    expect(marked.length).toBeGreaterThanOrEqual(7);
    expect(marked.every((event) => (event.data as { agent?: string }).agent === "Claude Code")).toBe(true);
    expect(phone.event("tool_call_end")?.data).toMatchObject({
      name: "Bash",
      input: { command: "touch made.txt" },
    });
    expect(phone.event("tool_result")?.data).toMatchObject({
      toolCallId: "toolu_touch",
      content: "(no output)",
    });
    const texts = phone.events.flatMap((event) => (event.type === "text_delta" ? [event.data] : []));
    expect(new Set(texts.map((text) => text.turnId)).size).toBe(1);
    expect(texts.map((text) => text.index)).toEqual([0, 2]);
    const late = await connect(session);
    await late.until(() => late.events.length >= phone.events.length, "the replay");
    expect(late.events).toEqual(phone.events);
    phone.close();
    late.close();
  });

  it("starts a turn for the person's message a prompt names, without showing the message twice", async () => {
    const session = await createExternal();
    const sent = await api("POST", `/api/sessions/${session.sessionId}/messages`, {
      token: session.token,
      body: { text: "Rename the branch" },
    });
    const { messageId } = ((await sent.json()) as { result: { messageId: string } }).result;
    const phone = await connect(session);
    const posted = await post(session, {
      events: [
        { type: "prompt", text: "Rename the branch", messageId },
        { type: "text", text: "Renaming it." },
      ],
    });
    expect(posted.status).toBe(200);
    const started = await phone.waitForEvent("turn_started");
    expect(started.data).toMatchObject({ messageId, agent: "Claude Code" });
    await phone.waitForEvent("text_delta");
    expect(phone.events.filter((event) => event.type === "user_message")).toHaveLength(1);
    phone.close();
  });

  it("can be posted over the agent's socket", async () => {
    const session = await createExternal();
    const agent = await connect(session, { token: session.agentToken });
    const ack = await agent.request({ type: "post_progress", events: [{ type: "text", text: "Thinking" }] });
    expect(ack).toMatchObject({ ok: true, result: { stored: 1 } });
    expect((await agent.waitForEvent("text_delta")).data).toMatchObject({
      text: "Thinking",
      agent: "Claude Code",
    });
    agent.close();
  });

  it("refuses oversized posts (413) and unknown events (400), storing none of the post", async () => {
    const session = await createExternal();
    await api("GET", `/api/sessions/${session.sessionId}`, { token: session.agentToken });
    const before = await storageFingerprint(session.sessionId);
    const huge = "x".repeat(MAX_INPUT_BYTES);
    await expectError(
      await post(session, { events: [{ type: "text", text: huge }] }),
      413,
      "payload_too_large",
    );
    const unknown = await post(session, {
      events: [
        { type: "text", text: "fine" },
        { type: "reasoning", text: "?" },
      ],
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /events\.1.*unknown progress event/,
    );
    await expectError(await post(session, { events: [] }), 400, "invalid_input");
    await expectError(
      await post(session, { events: [{ type: "status", state: "sleeping" }] }),
      400,
      "invalid_input",
    );
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});

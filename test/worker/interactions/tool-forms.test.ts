// A tool that asks mid-run (`ctx.elicit`): each form is a stored pause, the tool runs again from the
// start once it resolves, and its side effect happens once — across eviction, decline, timeout,
// cancel, and parallel calls whose forms are open together.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import {
  dumpStorage,
  eventsOf,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  tableRows,
  toolResultsOf,
} from "./interaction-fixtures";

const ADD = "toolu_add_dentist";
const STANDUP = "- 2026-12-01T10:00 · 60 min · Standup";

/** A session whose calendar holds a standup, then the model adds a dentist visit that overlaps it. */
async function addingAnOverlap(options: { interactionTimeoutMs?: number } = {}) {
  const session = await createSession({
    ...options,
    permissionMode: "acceptEdits",
    script: [
      toolReply([
        { name: "calendar_add_event", id: ADD, input: { title: "Dentist", start: "2026-12-01T10:30" } },
      ]),
      textReply("All set."),
    ],
  });
  const stub = stubOf(session);
  // The calendar already holds a standup, in the tool's own state.
  await tableRows(
    stub,
    `INSERT INTO tool_state (tool, key, value, updated_at) VALUES ('calendar_add_event', 'events', ?, 0)`,
    JSON.stringify([{ start: "2026-12-01T10:00", minutes: 60, title: "Standup" }]),
  );
  const laptop = await connect(session, { device: "laptop" });
  await laptop.request({ type: "send_message", text: "Dentist at 10:30 on Dec 1st" });
  const first = await laptop.waitForEvent("interaction_prompt", (e) => e.data.toolCallId === ADD);
  return { session, stub, laptop, first };
}

const details = { action: "accept", content: { title: "Dentist", start: "2026-12-01T10:30", minutes: 45 } };

/** The calendar as its result lists it: one line per stored event. */
async function calendarText(stub: ReturnType<typeof stubOf>): Promise<string> {
  const rows = await tableRows<{ value: string }>(
    stub,
    `SELECT value FROM tool_state WHERE tool = 'calendar_add_event' AND key = 'events'`,
  );
  const events = JSON.parse(rows[0]?.value ?? "[]") as Array<{
    start: string;
    minutes: number;
    title: string;
  }>;
  return events.map((event) => `- ${event.start} · ${event.minutes} min · ${event.title}`).join("\n");
}

describe("a tool that asks the person mid-run", () => {
  it("opens its first form with an id of its own, owned by the tool call, prefilled from the model", async () => {
    const { laptop, first, stub } = await addingAnOverlap();
    expect(first.data).toMatchObject({
      kind: "form",
      toolCallId: ADD,
      interactionId: `${ADD}-form-1`,
      toolName: "calendar_add_event",
      request: {
        message: "Add “Dentist” to the calendar? Check the details.",
        requestedSchema: { properties: { start: { default: "2026-12-01T10:30", format: "date-time" } } },
      },
    });
    await laptop.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    expect(eventsOf(laptop, "tool_result").map((e) => e.data.toolCallId)).toEqual([]);
    expect(await tableRows(stub, `SELECT tool_call_id FROM tool_runs WHERE tool_call_id = ?`, ADD)).toEqual(
      [],
    );
    laptop.close();
  });

  it("asks twice, survives eviction between the forms, and adds the event exactly once", async () => {
    const { session, stub, laptop } = await addingAnOverlap();
    const answered = await post(
      session,
      "respond",
      { interactionId: `${ADD}-form-1`, response: details },
      "laptop",
    );
    expect(answered.status).toBe(200);
    // The tool ran again with the answer, found the overlap and asked again.
    const second = await laptop.waitForEvent(
      "interaction_prompt",
      (e) => e.data.interactionId === `${ADD}-form-2`,
    );
    expect(second.data.request).toMatchObject({
      message: "“Dentist” overlaps “Standup” (2026-12-01T10:00, 60 min).",
    });
    await laptop.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    expect(await calendarText(stub)).toBe(STANDUP);

    await evictDurableObject(stub);
    const phone = await connect(session, { device: "phone" });
    expect(phone.hello?.snapshot.pending).toEqual([
      expect.objectContaining({ toolCallId: ADD, interactionId: `${ADD}-form-2`, kind: "form" }),
    ]);
    const ack = await phone.request({
      type: "respond",
      interactionId: `${ADD}-form-2`,
      response: { action: "accept", content: { choice: "add" } },
    });
    expect(ack.ok).toBe(true);
    await phone.waitForDone();

    expect(await calendarText(stub)).toBe(`${STANDUP}\n- 2026-12-01T10:30 · 45 min · Dentist`);
    const results = eventsOf(phone, "tool_result").filter((e) => e.data.toolCallId === ADD);
    expect(results.map((e) => e.data.content)).toEqual([
      `Added “Dentist” at 2026-12-01T10:30 for 45 minutes. The calendar has 2 events:\n${STANDUP}\n- 2026-12-01T10:30 · 45 min · Dentist`,
    ]);
    const [request] = await modelRequests(stub);
    expect(toolResultsOf(lastMessage(request))).toEqual([
      { toolUseId: ADD, content: results[0]?.data.content, isError: false },
    ]);
    expect(
      await tableRows(
        stub,
        `SELECT id, tool_call_id, status FROM interactions WHERE tool_call_id = ? ORDER BY id`,
        ADD,
      ),
    ).toEqual([
      { id: `${ADD}-form-1`, tool_call_id: ADD, status: "answered" },
      { id: `${ADD}-form-2`, tool_call_id: ADD, status: "answered" },
    ]);
    phone.close();
    laptop.close();
  });

  it("gives the tool a decline, and nothing is added", async () => {
    const { stub, laptop } = await addingAnOverlap();
    await laptop.request({
      type: "respond",
      interactionId: `${ADD}-form-1`,
      response: { action: "decline" },
    });
    const result = await laptop.waitForEvent("tool_result", (e) => e.data.toolCallId === ADD);
    expect(result.data).toMatchObject({
      content: "The user declined; nothing was added to the calendar.",
      isError: false,
    });
    await laptop.waitForDone();
    expect(await calendarText(stub)).toBe(STANDUP);
    laptop.close();
  });

  it("gives the tool a cancel when its second form times out, and the tool says nothing was added", async () => {
    const { stub, laptop } = await addingAnOverlap({ interactionTimeoutMs: 60_000 });
    await laptop.request({ type: "respond", interactionId: `${ADD}-form-1`, response: details });
    const second = await laptop.waitForEvent(
      "interaction_prompt",
      (e) => e.data.interactionId === `${ADD}-form-2`,
    );
    await advanceClock(stub, { at: second.data.expiresAt + 1 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const result = await laptop.waitForEvent("tool_result", (e) => e.data.toolCallId === ADD);
    expect(result.data.content).toBe(
      "Not added: “Dentist” overlaps “Standup” and the user chose not to double-book.",
    );
    await laptop.waitForDone();
    expect(await calendarText(stub)).toBe(STANDUP);
    laptop.close();
  });

  it("refuses a second answer to an earlier form once the tool moved on, changing nothing", async () => {
    const { session, stub, laptop } = await addingAnOverlap();
    await post(session, "respond", { interactionId: `${ADD}-form-1`, response: details });
    await laptop.waitForEvent("interaction_prompt", (e) => e.data.interactionId === `${ADD}-form-2`);
    await laptop.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    const before = await dumpStorage(stub);
    const late = await post(session, "respond", {
      interactionId: `${ADD}-form-1`,
      response: { action: "decline" },
    });
    expect(late.status).toBe(409);
    expect(late.body.error?.resolution).toMatchObject({ outcome: "answered", response: details });
    expect(await dumpStorage(stub)).toEqual(before);
    laptop.close();
  });

  it("keeps forms of parallel calls open together, and cancel resolves them all", async () => {
    const session = await createSession({
      permissionMode: "acceptEdits",
      script: [
        toolReply([
          { name: "calendar_add_event", id: "toolu_a", input: { title: "Gym" } },
          { name: "calendar_add_event", id: "toolu_b", input: { title: "Lunch" } },
        ]),
        textReply("unreached"),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Gym and lunch" });
    await device.until(() => eventsOf(device, "interaction_prompt").length === 2, "two forms");
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    expect((await device.request({ type: "cancel" })).ok).toBe(true);
    await device.waitForDone();
    const resolved = eventsOf(device, "interaction_resolved");
    expect(resolved.map((e) => [e.data.interactionId, e.data.outcome])).toEqual([
      ["toolu_a-form-1", "cancelled"],
      ["toolu_b-form-1", "cancelled"],
    ]);
    expect(eventsOf(device, "tool_result").map((e) => [e.data.toolCallId, e.data.content])).toEqual([
      ["toolu_a", "User cancelled the turn before answering the form"],
      ["toolu_b", "User cancelled the turn before answering the form"],
    ]);
    expect(await calendarText(stub)).toBe("");
    device.close();
  });
});

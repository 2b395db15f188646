// The four permission modes, and a mode changed mid-turn: what runs, what asks, what the model is
// told, and where the alarm stands.
import { describe, expect, it } from "vitest";
import type { PermissionMode } from "../../../src/protocol";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import {
  answeredResult,
  COLOUR_QUESTION,
  colourQuestion,
  eventsOf,
  expectAlarmAt,
  lastMessage,
  modelRequests,
  stubOf,
  toolResultsOf,
} from "./interaction-fixtures";
import { fetchCall, notes, servePages, writeCall } from "./page-fetches";

const { fetchesOfPage } = servePages();

describe("permission modes", () => {
  const cases: Array<{
    mode: PermissionMode;
    asks: string[];
    runs: string[];
    deniedByMode: string[];
  }> = [
    { mode: "default", asks: ["toolu_mode_write", "toolu_mode_fetch"], runs: [], deniedByMode: [] },
    { mode: "acceptEdits", asks: ["toolu_mode_fetch"], runs: ["toolu_mode_write"], deniedByMode: [] },
    { mode: "plan", asks: [], runs: [], deniedByMode: ["toolu_mode_write", "toolu_mode_fetch"] },
    { mode: "bypassPermissions", asks: [], runs: ["toolu_mode_write", "toolu_mode_fetch"], deniedByMode: [] },
  ];

  it.each(cases)(
    "in $mode mode asks about $asks and runs $runs",
    async ({ mode, asks, runs, deniedByMode }) => {
      const session = await createSession({
        permissionMode: mode,
        script: [toolReply([writeCall("toolu_mode_write"), fetchCall("toolu_mode_fetch")]), textReply("Ok.")],
      });
      const stub = stubOf(session);
      const device = await connect(session, { device: "phone" });
      expect(device.hello?.snapshot.mode).toBe(mode);
      await device.request({ type: "send_message", text: "Save the plan and read the notes page" });
      if (asks.length > 0) {
        await device.until(
          () => eventsOf(device, "approval_required").length === asks.length,
          "approval prompts",
        );
        await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
        const prompts = eventsOf(device, "approval_required");
        expect(prompts.map((e) => e.data.toolCallId)).toEqual(asks);
        await expectAlarmAt(stub, Math.min(...prompts.map((e) => e.data.expiresAt)));
        for (const toolCallId of asks) await device.request({ type: "deny", toolCallId });
      }
      await device.waitForDone();
      expect(eventsOf(device, "approval_required").map((e) => e.data.toolCallId)).toEqual(asks);

      const results = toolResultsOf(lastMessage((await modelRequests(stub))[1]));
      expect(results.map((result) => result.toolUseId)).toEqual(["toolu_mode_write", "toolu_mode_fetch"]);
      for (const result of results) {
        if (runs.includes(result.toolUseId)) expect(result.isError).toBe(false);
        else if (deniedByMode.includes(result.toolUseId)) {
          expect(result).toMatchObject({ isError: true, content: expect.stringContaining('"plan"') });
        } else expect(result).toMatchObject({ isError: true, content: "User denied tool execution" });
      }
      expect(await notes(stub)).toEqual(
        runs.includes("toolu_mode_write") ? [{ key: "plan", text: "Ship on Friday" }] : [],
      );
      expect(fetchesOfPage()).toBe(runs.includes("toolu_mode_fetch") ? 1 : 0);
      await expectAlarmAt(stub, null);
      device.close();
    },
  );

  it("applies a mode changed over HTTP mid-turn to the next tool call", async () => {
    const ask = "toolu_ask_before_plan";
    const session = await createSession({
      script: [
        toolReply([{ name: "AskUserQuestion", id: ask, input: colourQuestion() }]),
        toolReply([writeCall("toolu_write_in_plan")]),
        textReply("I will describe the change instead."),
      ],
    });
    const stub = stubOf(session);
    const device = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "Pick a colour, then save it" });
    const prompt = await device.waitForEvent("question_prompt");

    const patched = await api("PATCH", `/api/sessions/${session.sessionId}`, {
      token: session.token,
      body: { permissionMode: "plan" },
    });
    expect(patched.status).toBe(200);
    const status = await device.waitForEvent("session_status", (e) => e.data.mode === "plan");
    expect(status.data).toMatchObject({ status: "awaiting_input", mode: "plan" });
    // The question asked before the change is still open.
    await expectAlarmAt(stub, prompt.data.expiresAt);

    await device.request({ type: "submit_answers", toolCallId: ask, answers: { "0": "Blue" } });
    await device.waitForDone();
    expect(eventsOf(device, "approval_required")).toEqual([]);
    const requests = await modelRequests(stub);
    expect(toolResultsOf(lastMessage(requests[1]))).toEqual([
      { toolUseId: ask, content: answeredResult([[COLOUR_QUESTION, "Blue"]]), isError: false },
    ]);
    expect(toolResultsOf(lastMessage(requests[2]))).toEqual([
      { toolUseId: "toolu_write_in_plan", content: expect.stringContaining('"plan"'), isError: true },
    ]);
    expect(await notes(stub)).toEqual([]);
    await expectAlarmAt(stub, null);
    device.close();
  });

  it("applies a mode changed over a socket mid-turn to the next tool call, leaving the open card open", async () => {
    const session = await createSession({
      script: [
        toolReply([writeCall("toolu_asked_write")]),
        toolReply([writeCall("toolu_bypassed_write", "Ship on Monday")]),
        textReply("Both saved."),
      ],
    });
    const stub = stubOf(session);
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });
    await phone.request({ type: "send_message", text: "Save the plan, then revise it" });
    const prompt = await phone.waitForEvent("approval_required");

    const ack = await laptop.request({ type: "set_permission_mode", mode: "bypassPermissions" });
    expect(ack).toMatchObject({ ok: true, result: { mode: "bypassPermissions" } });
    const status = await phone.waitForEvent("session_status", (e) => e.data.mode === "bypassPermissions");
    expect(status.data.status).toBe("awaiting_input");
    expect(phone.event("interaction_resolved")).toBeUndefined();
    await expectAlarmAt(stub, prompt.data.expiresAt);

    await phone.request({ type: "approve", toolCallId: "toolu_asked_write" });
    await phone.waitForDone();
    expect(eventsOf(phone, "approval_required").map((e) => e.data.toolCallId)).toEqual(["toolu_asked_write"]);
    expect(await notes(stub)).toEqual([{ key: "plan", text: "Ship on Monday" }]);
    const snapshot = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(await snapshot.json()).toMatchObject({ mode: "bypassPermissions", status: "idle", pending: [] });
    await expectAlarmAt(stub, null);
    phone.close();
    laptop.close();
  });
});

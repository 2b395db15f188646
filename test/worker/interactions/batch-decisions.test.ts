// "Approve all" / "Deny all": one decision for the open approval cards of one assistant message,
// applied in one transaction; a card another device decided first is reported, not overwritten.
import { describe, expect, it } from "vitest";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { dumpStorage, modelRequests, post, stubOf, tableRows, toolResultsOf } from "./interaction-fixtures";

function writes(...ids: string[]) {
  return toolReply(ids.map((id) => ({ name: "notes_write", id, input: { key: id, text: `note ${id}` } })));
}

async function notes(session: { sessionId: string }) {
  return tableRows(stubOf(session), "SELECT key FROM notes ORDER BY key");
}

describe("batch decisions", () => {
  it("approves every card of a message at once, with the batch on each receipt", async () => {
    const session = await createSession({
      script: [writes("w1", "w2", "w3"), textReply("Saved all three.")],
    });
    const device = await connect(session, { device: "laptop" });
    await device.request({ type: "send_message", text: "Save three notes" });
    await device.until(
      () => device.events.filter((e) => e.type === "approval_required").length === 3,
      "3 cards",
    );

    const answer = await post(
      session,
      "decide-batch",
      { toolCallIds: ["w1", "w2", "w3"], decision: "approve" },
      "phone",
    );
    expect(answer.status).toBe(200);
    const result = answer.body.result as { batchId: string; decided: unknown[]; alreadyResolved: unknown[] };
    expect(result.decided).toHaveLength(3);
    expect(result.alreadyResolved).toEqual([]);
    await device.waitForDone();
    const receipts = device.events.filter((e) => e.type === "interaction_resolved");
    expect(receipts.map((e) => e.data)).toEqual(
      ["w1", "w2", "w3"].map((toolCallId) =>
        expect.objectContaining({
          toolCallId,
          outcome: "approved",
          resolvedBy: "phone",
          batch: { id: result.batchId, size: 3 },
        }),
      ),
    );
    expect(await notes(session)).toEqual([{ key: "w1" }, { key: "w2" }, { key: "w3" }]);
    device.close();
  });

  it("reports a card another device decided first and decides only the rest, when two devices race", async () => {
    const session = await createSession({ script: [writes("r1", "r2"), textReply("Done.")] });
    const laptop = await connect(session, { device: "laptop" });
    const phone = await connect(session, { device: "phone" });
    await laptop.request({ type: "send_message", text: "Save two notes" });
    await phone.until(
      () => phone.events.filter((e) => e.type === "approval_required").length === 2,
      "2 cards",
    );

    // Both devices send at once: the phone denies one card, the laptop approves all.
    const [single, batch] = await Promise.all([
      phone.request({ type: "deny", toolCallId: "r1", reason: "Not this one" }),
      laptop.request({ type: "decide_batch", toolCallIds: ["r1", "r2"], decision: "approve" }),
    ]);
    const outcome = batch.result as {
      decided: Array<{ toolCallId: string }>;
      alreadyResolved: Array<{ toolCallId: string; outcome: string }>;
    };
    await laptop.waitForDone();
    const receipts = laptop.events.filter((e) => e.type === "interaction_resolved");
    // Exactly one resolution per card, whoever arrived first.
    expect(receipts.map((e) => e.data.toolCallId).sort()).toEqual(["r1", "r2"]);
    if (single.ok) {
      // The phone's denial came first: the batch reports it and decides only the other card.
      expect(outcome.decided.map((r) => r.toolCallId)).toEqual(["r2"]);
      expect(outcome.alreadyResolved).toEqual([
        expect.objectContaining({ toolCallId: "r1", outcome: "denied", resolvedBy: "phone" }),
      ]);
      expect(await notes(session)).toEqual([{ key: "r2" }]);
    } else {
      // The batch came first: the phone is told who won, and both notes were written.
      expect(single.error).toMatchObject({
        code: "already_resolved",
        resolution: { outcome: "approved", resolvedBy: "laptop" },
      });
      expect(outcome.decided.map((r) => r.toolCallId)).toEqual(["r1", "r2"]);
      expect(await notes(session)).toEqual([{ key: "r1" }, { key: "r2" }]);
    }
    laptop.close();
    phone.close();
  });

  it("denies all with one reason, and can stop the turn instead of letting the model continue", async () => {
    const session = await createSession({
      script: [writes("s1", "s2"), textReply("This reply must never be requested.")],
    });
    const stub = stubOf(session);
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save two notes" });
    await device.until(
      () => device.events.filter((e) => e.type === "approval_required").length === 2,
      "2 cards",
    );
    const ack = await device.request({
      type: "decide_batch",
      toolCallIds: ["s1", "s2"],
      decision: "deny",
      reason: "Wrong notes",
      stop: true,
    });
    expect(ack).toMatchObject({ ok: true, result: { stopped: true } });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("rejected");
    expect(await modelRequests(stub)).toHaveLength(1);
    expect(await notes(session)).toEqual([]);
    // The transcript stays valid: both tool_uses have their denial as a result.
    const transcript = await tableRows<{ role: string; content: string }>(
      stub,
      "SELECT role, content FROM messages ORDER BY id",
    );
    const results = toolResultsOf({ role: "user", content: JSON.parse(transcript.at(-1)?.content ?? "[]") });
    expect(results.map((r) => [r.toolUseId, r.content])).toEqual([
      ["s1", "User denied tool execution and stopped the turn. Reason: Wrong notes"],
      ["s2", "User denied tool execution and stopped the turn. Reason: Wrong notes"],
    ]);
    device.close();
  });

  it("a single deny can also stop the turn", async () => {
    const session = await createSession({ script: [writes("d1"), textReply("Never requested.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save a note" });
    await device.waitForEvent("approval_required");
    expect(await device.request({ type: "deny", toolCallId: "d1", stop: true })).toMatchObject({ ok: true });
    expect((await device.waitForDone()).data.stopReason).toBe("rejected");
    expect(await modelRequests(session)).toHaveLength(1);
    device.close();
  });

  it("refuses a batch naming cards of another message or another session, and changes nothing", async () => {
    const session = await createSession({ script: [writes("m1"), writes("m2", "m3"), textReply("Done.")] });
    const other = await createSession({ script: [writes("x1"), textReply("Done.")] });
    const device = await connect(session);
    const otherDevice = await connect(other);
    await otherDevice.request({ type: "send_message", text: "Save" });
    await otherDevice.waitForEvent("approval_required");
    await device.request({ type: "send_message", text: "Save notes" });
    await device.waitForEvent("approval_required");
    await device.request({ type: "approve", toolCallId: "m1" });
    await device.until(
      () => device.events.filter((e) => e.type === "approval_required").length === 3,
      "3 cards",
    );

    const before = await dumpStorage(session);
    const mixed = await post(session, "decide-batch", { toolCallIds: ["m2", "m1"], decision: "approve" });
    expect(mixed).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "invalid_input",
          message:
            '"m2" and "m1" belong to different assistant messages; a batch decides the cards of one message',
        },
      },
    });
    const foreign = await post(session, "decide-batch", { toolCallIds: ["m2", "x1"], decision: "deny" });
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "unknown_interaction" } } });
    const tooLong = await post(session, "decide-batch", {
      toolCallIds: ["m2"],
      decision: "deny",
      reason: "x".repeat(4_001),
    });
    expect(tooLong.status).toBe(400);
    const badDecision = await post(session, "decide-batch", { toolCallIds: ["m2"], decision: "maybe" });
    expect(badDecision).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining('decision must be "approve" or "deny"') } },
    });
    expect(await dumpStorage(session)).toEqual(before);
    device.close();
    otherDevice.close();
  });
});

import { describe, expect, it } from "vitest";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { expectError, mintLink } from "./access-fixtures";

describe("what an answer link may decide", () => {
  it("approves a tool once, but may not always allow it", async () => {
    const session = await createSession({
      script: [
        toolReply([{ name: "notes_write", id: "toolu_once", input: { key: "k", text: "v" } }]),
        textReply("Saved."),
      ],
    });
    const link = await mintLink(session, { role: "answer" });
    const device = await connect(session, { token: link.token });
    await device.request({ type: "send_message", text: "save it" });
    await device.waitForEvent("approval_required");
    const path = `/api/sessions/${session.sessionId}`;
    await expectError(
      await api("POST", `${path}/approve`, {
        token: link.token,
        body: { toolCallId: "toolu_once", remember: true },
      }),
      403,
      "forbidden",
    );
    const viaRespond = await device.request({
      type: "respond",
      toolCallId: "toolu_once",
      response: { decision: "approve", remember: true },
    });
    expect(viaRespond).toMatchObject({ ok: false, error: { code: "forbidden" } });
    const once = await device.request({ type: "approve", toolCallId: "toolu_once" });
    expect(once.ok).toBe(true);
    await device.waitForDone();
    device.close();
  });

  it("may not accept a plan with edits, which would change the permission mode, but may approve it for review", async () => {
    const session = await createSession({
      permissionMode: "plan",
      script: [
        toolReply([{ name: "ExitPlanMode", id: "toolu_plan", input: { plan: "1. Do it." } }]),
        textReply("Ok."),
      ],
    });
    const link = await mintLink(session, { role: "answer" });
    const device = await connect(session, { token: link.token });
    await device.request({ type: "send_message", text: "plan it" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "plan");
    const edits = await device.request({
      type: "respond",
      toolCallId: "toolu_plan",
      response: { choice: "accept_edits" },
    });
    expect(edits).toMatchObject({ ok: false, error: { code: "forbidden" } });
    const review = await device.request({
      type: "respond",
      toolCallId: "toolu_plan",
      response: { choice: "review_each" },
    });
    expect(review.ok).toBe(true);
    await device.waitForDone();
    device.close();
  });
});

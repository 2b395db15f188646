// Edit-then-approve: a person approves a tool call with input they edited; Parley's own loop runs
// the edit and says so, a misfit edit is refused, and an external agent gets the edit back.
import { describe, expect, it } from "vitest";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { createExternal, openApproval } from "../external/external-fixtures";
import {
  lastMessage,
  modelRequests,
  post,
  stubOf,
  tableRows,
  toolResultsOf,
} from "../interactions/interaction-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";

const writeCall = { name: "notes_write", id: "toolu_edit", input: { key: "plan", text: "Ship on Friday" } };

describe("edit, then approve", () => {
  it("runs the edited input in Parley's own loop, and its events and the model's tool result say what ran", async () => {
    const session = await createSession({ script: [toolReply([writeCall]), textReply("Noted.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save the plan" });
    await device.waitForEvent("approval_required");
    const approved = await post(session, "approve", {
      toolCallId: "toolu_edit",
      updatedInput: { key: "plan", text: "Ship on Monday" },
    });
    expect(approved.status).toBe(200);
    await device.waitForDone();
    expect(await tableRows(stubOf(session), "SELECT key, text FROM notes")).toEqual([
      { key: "plan", text: "Ship on Monday" },
    ]);
    const ends = device.events.flatMap((event) => (event.type === "tool_call_end" ? [event.data.input] : []));
    expect(ends).toEqual([writeCall.input, { key: "plan", text: "Ship on Monday" }]);
    const [result] = toolResultsOf(lastMessage((await modelRequests(stubOf(session)))[1]));
    expect(String(result?.content)).toMatch(
      /edited this call before approving it; it ran with input .*Ship on Monday/,
    );
    device.close();
  });

  it("refuses an edit that does not fit the tool's input schema, and the card stays open", async () => {
    const session = await createSession({ script: [toolReply([writeCall]), textReply("Noted.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "Save the plan" });
    await device.waitForEvent("approval_required");
    const before = await storageFingerprint(session.sessionId);
    const refused = await post(session, "approve", {
      toolCallId: "toolu_edit",
      updatedInput: { key: "plan", text: 42 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_answer" });
    expect(String(refused.body.error?.message)).toMatch(/updatedInput does not fit notes_write: .*text/);
    const notAnObject = await post(session, "respond", {
      toolCallId: "toolu_edit",
      response: { decision: "approve", updatedInput: ["rm -rf /"] },
    });
    expect(notAnObject.status).toBe(400);
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    device.close();
  });

  it("gives an external agent the edited input in the approval's response", async () => {
    const session = await createExternal();
    const id = await openApproval(session);
    const approved = await api("POST", `/api/sessions/${session.sessionId}/approve`, {
      token: session.token,
      body: { toolCallId: id, updatedInput: { command: "touch edited.txt" } },
    });
    expect(approved.status).toBe(200);
    const read = await api("GET", `/api/sessions/${session.sessionId}/interactions/${id}`, {
      token: session.agentToken,
    });
    expect(await read.json()).toMatchObject({
      resolution: {
        outcome: "approved",
        response: { decision: "approve", updatedInput: { command: "touch edited.txt" } },
      },
    });
  });
});

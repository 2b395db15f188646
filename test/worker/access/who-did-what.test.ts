// Who did what: every message, answer, batch decision, cancel and mode change records who sent it
// as the server knows them (the owner's person, or a link's label and id), never the device's
// self-chosen name, and the export keeps it.
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/protocol";
import {
  api,
  asOperator,
  type CreatedSession,
  connect,
  createSession,
  type Device,
  toolReply,
} from "../../helpers/session-harness";
import { mintLink } from "./access-fixtures";

const ask = (id: string) =>
  toolReply([
    {
      id,
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question: "Which database?",
            header: "Database",
            multiSelect: false,
            options: [
              { label: "Postgres", description: "Relational" },
              { label: "SQLite", description: "Embedded" },
            ],
          },
        ],
      },
    },
  ]);

const writes = (...keys: string[]) =>
  toolReply(keys.map((key) => ({ id: `toolu_who_${key}`, name: "notes_write", input: { key, text: key } })));

let devices: Device[] = [];
afterEach(() => {
  for (const device of devices) device.close();
  devices = [];
});

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T) {
  return events.filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
}

describe("who did what", () => {
  it("names the link behind a message, a card answered in chat, a batch decision and a cancel, whatever the device calls itself", async () => {
    const session = await createSession({
      script: [ask("toolu_who_q"), writes("a", "b"), ask("toolu_who_q2")],
    });
    const link = await mintLink(session, { role: "answer", label: "Ana's phone" });
    const who = `Ana's phone (share link ${link.linkId.slice(0, 8)})`;
    // The device claims to be the owner's laptop: a display name, which decides nothing.
    const phone = await connect(session, { token: link.token, device: "owner-laptop" });
    devices.push(phone);

    await phone.request({ type: "send_message", text: "set up the service" });
    await phone.waitForEvent("question_prompt");
    await phone.request({ type: "send_message", text: "Postgres" });
    await phone.waitForEvent("approval_required");
    await phone.until(() => ofType(phone.events, "approval_required").length === 2, "both approvals");
    const batch = await phone.request({
      type: "decide_batch",
      toolCallIds: ["toolu_who_a", "toolu_who_b"],
      decision: "approve",
    });
    expect(batch.ok).toBe(true);
    await phone.until(
      () =>
        phone.events.some(
          (event) => event.type === "question_prompt" && event.data.toolCallId === "toolu_who_q2",
        ),
      "the second question",
    );
    expect((await phone.request({ type: "cancel" })).ok).toBe(true);
    await phone.waitForDone();

    const messages = ofType(phone.events, "user_message");
    expect(messages.map((event) => [event.data.text, event.data.by, event.data.deviceId])).toEqual([
      ["set up the service", who, "owner-laptop"],
      ["Postgres", who, "owner-laptop"],
    ]);
    const resolved = ofType(phone.events, "interaction_resolved");
    expect(
      resolved.map((event) => [event.data.toolCallId, event.data.outcome, event.data.answeredBy]),
    ).toEqual([
      ["toolu_who_q", "answered", who],
      ["toolu_who_a", "approved", who],
      ["toolu_who_b", "approved", who],
      // The card a cancel settles names who cancelled, as the turn's end does.
      ["toolu_who_q2", "cancelled", who],
    ]);
    expect(ofType(phone.events, "done").at(-1)?.data).toMatchObject({ stopReason: "cancelled", by: who });
  });

  it("names the owner's person behind a mode change, and the export keeps every name", async () => {
    // A session with a person behind it: the operator's (one made with no credential is no one's).
    const session = (await (
      await asOperator("POST", "/api/sessions", { body: {} })
    ).json()) as CreatedSession;
    const owner = await connect(session, { device: "laptop" });
    devices.push(owner);
    const changed = await api("PATCH", `/api/sessions/${session.sessionId}`, {
      token: session.token,
      body: { permissionMode: "acceptEdits" },
    });
    expect(changed.status).toBe(200);
    const status = await owner.waitForEvent("session_status", (event) => event.data.mode === "acceptEdits");
    const owners = status.data.by;
    expect(owners).toEqual(expect.any(String));

    const link = await mintLink(session, { role: "answer", label: "Reviewer" });
    const reviewer = await connect(session, { token: link.token, device: "laptop" });
    devices.push(reviewer);
    await reviewer.request({ type: "send_message", text: "hello from the reviewer" });
    await owner.waitForEvent("user_message");

    const exported = (await (
      await api("GET", `/api/sessions/${session.sessionId}/export`, { token: session.token })
    ).json()) as { events: SessionEvent[] };
    expect(ofType(exported.events, "session_status").map((event) => event.data.by)).toContain(owners);
    expect(
      ofType(exported.events, "user_message").map((event) => [event.data.by, event.data.deviceId]),
    ).toEqual([[`Reviewer (share link ${link.linkId.slice(0, 8)})`, "laptop"]]);
  });
});

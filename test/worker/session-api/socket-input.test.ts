import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_INPUT_BYTES } from "../../../src/protocol";
import { type CreatedSession, connect, type Device, ORIGIN } from "../../helpers/session-harness";
import { pausedSession, storageFingerprint, waitForSeq } from "./channel-fixtures";

interface BadFrame {
  /** Completes "answers …". */
  what: string;
  frame: string | Uint8Array;
  code: string;
  /** The requestId the error ack must carry (null when none was readable). */
  requestId: string | null;
  mentions?: string;
}

const CASES: BadFrame[] = [
  {
    what: "malformed JSON with bad_json",
    frame: '{"type":"send_message",',
    code: "bad_json",
    requestId: null,
  },
  {
    what: "a binary frame with bad_json",
    frame: new Uint8Array([123, 125]),
    code: "bad_json",
    requestId: null,
  },
  {
    what: "a JSON array with invalid_input",
    frame: '[{"type":"cancel"}]',
    code: "invalid_input",
    requestId: null,
  },
  { what: "a JSON number with invalid_input", frame: "42", code: "invalid_input", requestId: null },
  { what: "JSON null with invalid_input", frame: "null", code: "invalid_input", requestId: null },
  {
    what: "an unknown command type with unknown_command",
    frame: JSON.stringify({ type: "launch_missiles", requestId: "q1" }),
    code: "unknown_command",
    requestId: "q1",
    mentions: "launch_missiles",
  },
  {
    what: "a command without a type with unknown_command",
    frame: JSON.stringify({ text: "hi", requestId: "q2" }),
    code: "unknown_command",
    requestId: "q2",
  },
  {
    what: "a message whose text is a number with invalid_input naming text",
    frame: JSON.stringify({ type: "send_message", text: 7, requestId: "q3" }),
    code: "invalid_input",
    requestId: "q3",
    mentions: "text",
  },
  {
    what: "an empty message with invalid_input",
    frame: JSON.stringify({ type: "send_message", text: "  ", requestId: "q4" }),
    code: "invalid_input",
    requestId: "q4",
    mentions: "message is empty",
  },
  {
    what: "an unknown field with invalid_input naming it",
    frame: JSON.stringify({ type: "send_message", text: "hi", urgent: true, requestId: "q5" }),
    code: "invalid_input",
    requestId: "q5",
    mentions: "urgent",
  },
  {
    what: "an approval whose remember is a string with invalid_input naming remember",
    frame: JSON.stringify({ type: "approve", toolCallId: "toolu_pending", remember: "yes", requestId: "q6" }),
    code: "invalid_input",
    requestId: "q6",
    mentions: "remember",
  },
  {
    what: "a resume with a negative cursor with invalid_input naming after",
    frame: JSON.stringify({ type: "resume", after: -1, requestId: "q7" }),
    code: "invalid_input",
    requestId: "q7",
    mentions: "after",
  },
  {
    what: "an unknown permission mode with invalid_input naming mode",
    frame: JSON.stringify({ type: "set_permission_mode", mode: "yolo", requestId: "q8" }),
    code: "invalid_input",
    requestId: "q8",
    mentions: "mode",
  },
  {
    what: "a requestId that is not a string with invalid_input",
    frame: JSON.stringify({ type: "cancel", requestId: 5 }),
    code: "invalid_input",
    requestId: null,
    mentions: "requestId",
  },
  {
    what: "a frame over 64 KiB with payload_too_large",
    frame: JSON.stringify({ type: "send_message", text: "x".repeat(MAX_INPUT_BYTES), requestId: "q9" }),
    code: "payload_too_large",
    requestId: null,
  },
  {
    what: "a frame under 64 KiB in characters but over it in UTF-8 bytes with payload_too_large",
    frame: JSON.stringify({ type: "send_message", text: "€".repeat(MAX_INPUT_BYTES / 2), requestId: "q9b" }),
    code: "payload_too_large",
    requestId: null,
  },
  {
    what: "an approval for an unknown toolCallId with unknown_interaction",
    frame: JSON.stringify({ type: "approve", toolCallId: "toolu_unknown", requestId: "q10" }),
    code: "unknown_interaction",
    requestId: "q10",
    mentions: "toolu_unknown",
  },
  {
    what: "a denial for an unknown toolCallId with unknown_interaction",
    frame: JSON.stringify({ type: "deny", toolCallId: "toolu_unknown", requestId: "q11" }),
    code: "unknown_interaction",
    requestId: "q11",
  },
  {
    what: "answers for an unknown toolCallId with unknown_interaction",
    frame: JSON.stringify({
      type: "submit_answers",
      toolCallId: "toolu_unknown",
      answers: { "0": "A" },
      requestId: "q12",
    }),
    code: "unknown_interaction",
    requestId: "q12",
  },
];

let open: Device[] = [];
afterEach(() => {
  for (const device of open) device.close();
  open = [];
});

async function join(session: CreatedSession): Promise<Device> {
  const device = await connect(session, { device: "tester" });
  open.push(device);
  await waitForSeq(device, device.hello?.snapshot.lastSeq ?? 0);
  return device;
}

describe("malformed WebSocket input", () => {
  for (const bad of CASES) {
    it(`answers ${bad.what}, keeps the socket open and changes nothing`, async () => {
      const session = await pausedSession();
      const device = await join(session);
      const before = await storageFingerprint(session.sessionId);
      const eventsBefore = device.events.length;

      device.socket.send(bad.frame);
      const ack = await device.until(() => device.acks[0], "error ack");
      expect(ack).toMatchObject({
        type: "ack",
        ok: false,
        requestId: bad.requestId,
        error: { code: bad.code },
      });
      if (bad.mentions) expect(ack.error?.message).toContain(bad.mentions);

      // The socket still serves commands, and nothing was stored or broadcast.
      const resumed = await device.request({ type: "resume", after: device.hello?.snapshot.lastSeq ?? 0 });
      expect(resumed).toMatchObject({ ok: true, result: { lastSeq: device.hello?.snapshot.lastSeq } });
      expect(device.closed).toBe(false);
      expect(device.events.length).toBe(eventsBefore);
      expect(device.acks).toHaveLength(2);
      expect(await storageFingerprint(session.sessionId)).toBe(before);
    });
  }

  it("still runs a valid command after a string of malformed frames", async () => {
    const session = await pausedSession();
    const device = await join(session);
    for (const bad of CASES) device.socket.send(bad.frame);
    await device.until(() => device.acks.length === CASES.length, "every error ack");
    expect(device.acks.every((ack) => !ack.ok)).toBe(true);

    const approved = await device.request({ type: "approve", toolCallId: "toolu_pending" });
    expect(approved).toMatchObject({ ok: true, result: { outcome: "approved", resolvedBy: "tester" } });
    await device.waitForDone();
    expect(device.event("tool_result", (e) => e.data.toolCallId === "toolu_pending")?.data.isError).toBe(
      false,
    );
  });

  it("acks a valid command without a requestId with a null requestId", async () => {
    const session = await pausedSession();
    const device = await join(session);
    device.sendRaw(JSON.stringify({ type: "resume", after: 0 }));
    const ack = await device.until(() => device.acks[0], "ack");
    expect(ack).toMatchObject({ requestId: null, ok: true });
  });
});

describe("a malformed WebSocket upgrade query", () => {
  for (const [what, query, field] of [
    ["a negative after", "after=-1", "after"],
    ["a non-numeric after", "after=abc", "after"],
    ["a fractional after", "after=1.5", "after"],
    ["a device id with a space", "device=my%20phone", "device"],
    ["a device id over 64 characters", `device=${"d".repeat(65)}`, "device"],
  ] as const) {
    it(`refuses ${what} with 400 invalid_input naming ${field} and changes nothing`, async () => {
      const session = await pausedSession();
      const before = await storageFingerprint(session.sessionId);
      const response = await exports.default.fetch(
        `${ORIGIN}/api/sessions/${session.sessionId}/ws?token=${session.token}&${query}`,
        { headers: { upgrade: "websocket" } },
      );
      expect(response.status).toBe(400);
      expect(response.webSocket).toBeNull();
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("invalid_input");
      // One readable line naming the parameter, like every other validation error.
      expect(error.message).toMatch(new RegExp(`^${field}: `));
      expect(await storageFingerprint(session.sessionId)).toBe(before);
    });
  }
});

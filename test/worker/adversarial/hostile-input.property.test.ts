// Property suite: ~1 000 seeded malformed and hostile WebSocket frames and HTTP bodies against a
// paused session. None may cause a 5xx, each refusal carries a documented error code, sockets stay
// open, storage stays byte-identical, and the genuine answer is still accepted afterwards.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientCommand } from "../../../src/protocol/commands";
import { ErrorCode } from "../../../src/protocol/errors";
import { PatchSessionBody } from "../../../src/protocol/http";
import { api, type CreatedSession, connect, type Device } from "../../helpers/session-harness";
import { pausedSession, storageFingerprint } from "../channel/channel-fixtures";
import { hostileText, PENDING_ID } from "./hostile-input";

const SEED = Number(process.env.FC_SEED ?? 20261123);
const FRAMES = 650;
const BODIES = 400;
// A socket may send a burst of 20 commands; the suite moves to a fresh socket before that.
const FRAMES_PER_SOCKET = 18;

/** Refusals bad input may get; anything else (or a code outside the protocol) fails the suite. */
const EXPECTED_REFUSALS = new Set([
  "bad_json",
  "invalid_input",
  "payload_too_large",
  "unknown_command",
  "unknown_interaction",
  "wrong_interaction_kind",
  "invalid_answer",
  "nothing_to_cancel",
  "nothing_to_retry",
  "no_agent",
  "not_top_agent",
]);

/** True for input that is well-formed and would legitimately act on the session (not bad input). */
function wouldAct(command: unknown): boolean {
  const parsed = ClientCommand.safeParse(command);
  if (!parsed.success) return false;
  const { type } = parsed.data;
  if (type === "send_message" || type === "cancel" || type === "set_permission_mode") return true;
  if (type === "extend_deadline") return parsed.data.interactionId === PENDING_ID;
  if (type === "set_deadline_policies") return true;
  return "toolCallId" in parsed.data && parsed.data.toolCallId === PENDING_ID && type !== "submit_answers";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const ROUTES = [
  ["POST", "/messages", "send_message"],
  ["POST", "/submit-answers", "submit_answers"],
  ["POST", "/approve", "approve"],
  ["POST", "/deny", "deny"],
  ["POST", "/respond", "respond"],
  ["POST", "/cancel", "cancel"],
  ["POST", "/retry-now", "retry_now"],
  ["POST", "/end-agent", "end_agent"],
  ["POST", "/extend-deadline", "extend_deadline"],
  ["POST", "/deadline-policies", "set_deadline_policies"],
  ["PATCH", "", "set_permission_mode"],
] as const;

function bodyWouldAct(route: (typeof ROUTES)[number], text: string): boolean {
  const value = text.trim() === "" ? {} : parseJson(text);
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  if (route[2] === "set_permission_mode") return PatchSessionBody.safeParse(value).success;
  return wouldAct({ ...value, type: route[2] });
}

function expectDocumentedRefusal(code: string | undefined, input: string): void {
  expect(ErrorCode.options, `undocumented code for ${input.slice(0, 200)}`).toContain(code);
  expect(EXPECTED_REFUSALS.has(code ?? ""), `unexpected refusal ${code} for ${input.slice(0, 200)}`).toBe(
    true,
  );
}

describe("hostile input against a paused session", () => {
  it(`refuses ${FRAMES} WebSocket frames and ${BODIES} HTTP bodies precisely, changes nothing, and still takes the real answer`, async () => {
    const session: CreatedSession = await pausedSession();
    const before = await storageFingerprint(session.sessionId);
    let device: Device = await connect(session);
    let sentOnSocket = 0;

    await fc.assert(
      fc.asyncProperty(
        hostileText.filter((text) => !wouldAct(parseJson(text))),
        async (frame) => {
          if (sentOnSocket === FRAMES_PER_SOCKET) {
            device.close();
            device = await connect(session);
            sentOnSocket = 0;
          }
          sentOnSocket += 1;
          const acks = device.acks.length;
          device.sendRaw(frame);
          const ack = await device.until(() => device.acks[acks], "an ack");
          if (ack.ok) expect((parseJson(frame) as { type?: unknown }).type).toBe("resume");
          else expectDocumentedRefusal(ack.error?.code, frame);
          expect(device.closed).toBe(false);
        },
      ),
      { seed: SEED, numRuns: FRAMES, endOnFailure: true },
    );
    device.close();

    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(fc.constantFrom(...ROUTES), hostileText)
          .filter(([route, text]) => !bodyWouldAct(route, text)),
        async ([route, body]) => {
          const response = await api(route[0], `/api/sessions/${session.sessionId}${route[1]}`, {
            token: session.token,
            rawBody: body,
          });
          expect(response.status, `${route[1]} ${body.slice(0, 200)}`).toBeLessThan(500);
          expect(response.status).toBeGreaterThanOrEqual(400);
          const error = ((await response.json()) as { error?: { code: string } }).error;
          expectDocumentedRefusal(error?.code, body);
        },
      ),
      { seed: SEED + 1, numRuns: BODIES, endOnFailure: true },
    );

    expect(await storageFingerprint(session.sessionId)).toBe(before);
    const owner = await connect(session);
    expect(await owner.request({ type: "approve", toolCallId: PENDING_ID })).toMatchObject({ ok: true });
    await owner.waitForDone();
    owner.close();
  }, 240_000);
});

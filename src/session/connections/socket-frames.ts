// Reading one WebSocket frame into a command, with a precise error for every way it can be wrong.

import { MAX_INPUT_BYTES } from "../../protocol/limits";
import { ClientCommand, COMMAND_TYPES } from "../../protocol/wire/commands";
import { describeZodError, type ErrorBody } from "../../protocol/wire/errors";

export type ParsedFrame =
  | { ok: true; command: ClientCommand }
  | { ok: false; requestId: string | null; error: ErrorBody };

const encoder = new TextEncoder();

/**
 * Whether the frame is over the limit in UTF-8 bytes. A UTF-16 unit is at most three UTF-8 bytes,
 * so a frame of up to a third of the limit in units fits without being encoded (each command was).
 */
function overLimit(text: string): boolean {
  if (text.length > MAX_INPUT_BYTES) return true;
  return text.length * 3 > MAX_INPUT_BYTES && encoder.encode(text).byteLength > MAX_INPUT_BYTES;
}

export function parseCommandFrame(message: string | ArrayBuffer): ParsedFrame {
  if (typeof message !== "string") {
    return fail(null, "bad_json", "Binary frames are not accepted; send JSON text");
  }
  if (overLimit(message)) {
    return fail(null, "payload_too_large", `Frame exceeds ${MAX_INPUT_BYTES} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch (error) {
    return fail(null, "bad_json", `Frame is not valid JSON: ${(error as Error).message}`);
  }
  const requestId = readRequestId(value);
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return fail(requestId, "invalid_input", "A command must be a JSON object with a type");
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !(COMMAND_TYPES as string[]).includes(type)) {
    return fail(
      requestId,
      "unknown_command",
      `Unknown command type ${JSON.stringify(type)}; expected one of ${COMMAND_TYPES.join(", ")}`,
    );
  }
  const parsed = ClientCommand.safeParse(value);
  if (!parsed.success) return fail(requestId, "invalid_input", describeZodError(parsed.error));
  return { ok: true, command: parsed.data };
}

function readRequestId(value: unknown): string | null {
  if (value && typeof value === "object" && "requestId" in value) {
    const id = (value as { requestId: unknown }).requestId;
    if (typeof id === "string" && id.length <= 64) return id;
  }
  return null;
}

function fail(requestId: string | null, code: ErrorBody["code"], message: string): ParsedFrame {
  return { ok: false, requestId, error: { code, message } };
}

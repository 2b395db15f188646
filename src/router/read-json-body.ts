// Reads and validates a JSON request body with a size cap, mapping every failure to an HttpError.
import type { Context } from "hono";
import type * as z from "zod";
import { MAX_INPUT_BYTES } from "../protocol/limits";
import { describeZodError } from "../protocol/wire/errors";
import { HttpError } from "./http-error";

export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  { optional = false } = {},
): Promise<z.infer<T>> {
  const text = new TextDecoder().decode(await readCappedBody(c.req.raw));
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new HttpError("bad_json", `Body is not valid JSON: ${(error as Error).message}`);
    }
  } else if (!optional) {
    throw new HttpError("bad_json", "Body is empty; expected JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError("invalid_input", describeZodError(parsed.error));
  return parsed.data;
}

/**
 * The body's bytes, refusing as soon as they pass the cap: a body sent without Content-Length
 * must not be buffered whole (megabytes) only to be rejected afterwards.
 */
export async function readCappedBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_INPUT_BYTES) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_INPUT_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(): HttpError {
  return new HttpError("payload_too_large", `Body exceeds ${MAX_INPUT_BYTES} bytes`);
}
